// issue 26: PAYMENT_DEMO_PRODUCTS stocks two token packs and a plan once, on an empty product table; the demo token
// packs are the merch service's demo bundles (MERCH_DEMO_STOCK), so a development checkout credits their tokens.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLogger, demoProductUuid } from "@tt/kit";
import { merchServiceDefinition } from "@tt/merch-service";
import { TokenService } from "@tt/proto/tt/merch/v1/token_service_pb";
import { ProductService } from "@tt/proto/tt/payment/v1/product_service_pb";
import { SubscriptionService } from "@tt/proto/tt/payment/v1/subscription_service_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPaymentHarness, type PaymentHarness } from "../../testing/payment-harness.ts";
import { Product } from "../product.entity.ts";
import { DEMO_PRODUCTS, seedDemoProducts } from "./demo-products.ts";

let on: PaymentHarness;
let off: PaymentHarness;
let mediaDir: string;

beforeAll(async () => {
  mediaDir = await mkdtemp(join(tmpdir(), "tt-demo-products-"));
  [on, off] = await Promise.all([
    createPaymentHarness({ PAYMENT_DEMO_PRODUCTS: "true", MERCH_DEMO_STOCK: "true", MEDIA_DIR: mediaDir }, [
      merchServiceDefinition,
    ]),
    createPaymentHarness(),
  ]);
}, 60_000);
afterAll(async () => {
  await Promise.all([on?.close(), off?.close()]);
  await rm(mediaDir, { recursive: true, force: true });
});

describe("issue 26: the demo products", () => {
  it("are two token packs and a plan; buying a pack credits the demo bundle's tokens", async () => {
    const buyer = await on.user();
    const packs = (await on.client(ProductService, { token: buyer.token }).listProducts({ limit: 100 })).products;
    expect(
      packs
        .filter((p) => p.paymentType === "one_time")
        .map((p) => p.id)
        .sort(),
    ).toEqual([demoProductUuid("tokens-100"), demoProductUuid("tokens-500")].sort());
    const plans = (await on.client(SubscriptionService, { token: buyer.token }).listSubscriptionProducts({})).products;
    expect(plans).toEqual([expect.objectContaining({ name: "Supporter", level: "supporter", active: true })]);

    const products = on.client(ProductService, { token: buyer.token });
    const { session } = await products.checkoutProduct({ id: demoProductUuid("tokens-100"), quantity: 1 });
    await products.completeDevCheckout({ session: session!.sessionId });
    const tokens = on.client(TokenService, { token: buyer.token });
    await expect
      .poll(async () => (await tokens.getSelfTokenAccount({}).catch(() => undefined))?.account?.balance, {
        timeout: 10_000,
      })
      .toBe(100);
  });

  it("are stocked once: a restart adds nothing, and an operator's deletion stands", async () => {
    const logger = createLogger({ service: "demo-products-test", level: "silent" });
    expect(await seedDemoProducts({ orm: on.orm, logger })).toBe(0);
    expect(await on.orm.em.fork().count(Product)).toBe(DEMO_PRODUCTS.length);
    await on.orm.em.fork().nativeDelete(Product, { id: demoProductUuid("tokens-500") });
    expect(await seedDemoProducts({ orm: on.orm, logger })).toBe(0);
    expect(await on.orm.em.fork().count(Product)).toBe(DEMO_PRODUCTS.length - 1);
  });

  it("stay off when PAYMENT_DEMO_PRODUCTS is unset", async () => {
    expect(await off.orm.em.fork().count(Product)).toBe(0);
  });
});
