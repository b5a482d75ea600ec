// Fixed uuids for the demo content a service seeds (songs, shop stock, products): the same name gives the same
// uuid in every process and on every start, so a seed finds what it made before and two services agree on an
// id (a token bundle's product) without asking each other.
import { createHash } from "node:crypto";

/** The system account that owns and makes the demo content (no person signs in as it). */
export const DEMO_ACCOUNT = "00000000-0000-4000-8000-000000000de0";

/** A name-based uuid (version 5 layout, SHA-1 of the name). */
export function nameBasedUuid(name: string): string {
  const h = createHash("sha1").update(name).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * A demo product's id: the payment service seeds the product under it and the merch service's demo token bundle
 * names it as its productId (the bundle a paid checkout of that product credits).
 */
export function demoProductUuid(slug: string): string {
  return nameBasedUuid(`turntable-demo-product:${slug}`);
}
