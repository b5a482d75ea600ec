// Issue 16: the payment service's ProductPurchased credits a token bundle's tokens × quantity once per purchase.
// The events are written here through this service's own outbox (the relay publishes them on their subject,
// tt.payment.purchase.completed), so the test needs no payment service.
import { eventually } from "@tt/kit/testing";
import { randomUUID } from "node:crypto";
import { publishEvent } from "@tt/kit";
import { TokenService } from "@tt/proto/tt/merch/v1/token_service_pb";
import { ProductPurchasedSchema } from "@tt/proto/tt/payment/v1/events_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMerchHarness, type MerchHarness } from "../../testing/merch-harness.ts";

let h: MerchHarness;
beforeAll(async () => {
  h = await createMerchHarness();
});
afterAll(() => h?.close());

async function purchased(event: { purchaseId: string; userUuid: string; productId: string; quantity: number }) {
  await h.orm.em.fork().transactional(async (em) => {
    publishEvent(em, ProductPurchasedSchema, event);
  });
}

async function balanceOf(token: string): Promise<number> {
  const res = await h
    .client(TokenService, { token })
    .getSelfTokenAccount({})
    .catch(() => undefined);
  return res?.account?.balance ?? 0;
}

describe("ProductPurchased consumer", () => {
  it("credits tokens × quantity once per purchase, and ignores products that are no token bundle", async () => {
    const admin = (await h.user("admin")).token;
    const productId = randomUUID();
    await h.client(TokenService, { token: admin }).createTokenBundle({ productId, name: "p", tokens: 30 });
    const buyer = await h.user();
    const purchaseId = randomUUID();
    // The same purchase announced twice (two event ids), and an unknown product.
    await purchased({ purchaseId, userUuid: buyer.uuid, productId, quantity: 2 });
    await purchased({ purchaseId, userUuid: buyer.uuid, productId, quantity: 2 });
    await purchased({ purchaseId: randomUUID(), userUuid: buyer.uuid, productId: randomUUID(), quantity: 1 });
    expect(
      await eventually(
        "the buyer's balance",
        () => balanceOf(buyer.token),
        (n) => n === 60,
      ),
    ).toBe(60);
    // A later purchase lands: everything before it has been handled, and credited once.
    await purchased({ purchaseId: randomUUID(), userUuid: buyer.uuid, productId, quantity: 1 });
    expect(
      await eventually(
        "the buyer's balance",
        () => balanceOf(buyer.token),
        (n) => n === 90,
      ),
    ).toBe(90);
  });
});
