// Stripe's webhook signature (https://docs.stripe.com/webhooks#verify-manually): the Stripe-Signature header
// is `t=<unix seconds>,v1=<hex>[,v1=<hex>…]` (other schemes such as v0 are ignored); the expected signature is
// HMAC-SHA256 of `"<t>.<raw body>"` with the endpoint secret; any v1 may match (secret rolling); the timestamp
// must be within the tolerance of now.
import { createHmac, timingSafeEqual } from "node:crypto";

export const DEFAULT_TOLERANCE_SECONDS = 300;

export function stripeSignature(secret: string, timestamp: number, payload: Buffer | string): string {
  return createHmac("sha256", secret).update(`${timestamp}.`).update(payload).digest("hex");
}

/** The header Stripe would send (tests, the development tools). */
export function stripeSignatureHeader(secret: string, payload: Buffer | string, timestamp: number): string {
  return `t=${timestamp},v1=${stripeSignature(secret, timestamp, payload)}`;
}

/** Whether the header signs the payload; never throws. */
export function verifyStripeSignature(
  header: string | null | undefined,
  payload: Buffer,
  secrets: readonly string[],
  nowSeconds: number,
  toleranceSeconds = DEFAULT_TOLERANCE_SECONDS,
): boolean {
  if (!header || header.length > 2000 || secrets.length === 0) return false;
  let timestamp: number | undefined;
  const signatures: Buffer[] = [];
  for (const part of header.split(",")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === "t") {
      if (!/^\d{1,12}$/.test(value)) return false;
      timestamp = Number(value);
    } else if (key === "v1" && /^[0-9a-f]{64}$/i.test(value)) {
      signatures.push(Buffer.from(value, "hex"));
    }
  }
  if (timestamp === undefined || signatures.length === 0) return false;
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) return false;
  return secrets.some((secret) => {
    const expected = Buffer.from(stripeSignature(secret, timestamp!, payload), "hex");
    return signatures.some((s) => s.length === expected.length && timingSafeEqual(s, expected));
  });
}
