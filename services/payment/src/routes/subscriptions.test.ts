import { Code } from "@connectrpc/connect";
import { ProductService } from "@tt/proto/tt/payment/v1/product_service_pb";
import { SubscriptionService } from "@tt/proto/tt/payment/v1/subscription_service_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPaymentHarness, refusal, type PaymentHarness } from "../testing/payment-harness.ts";

let h: PaymentHarness;
let admin: string;
let planId: string;
beforeAll(async () => {
  h = await createPaymentHarness();
  admin = await h.tokens.user("admin");
  const products = h.client(ProductService, { token: admin });
  planId = (await products.createProduct({ name: "Silver", paymentType: "recurring", level: "silver", price: 500 }))
    .product!.id;
  await products.createProduct({ name: "Gold", paymentType: "recurring", level: "gold", price: 900 });
  await products.createProduct({ name: "Tokens", price: 100 });
});
afterAll(() => h?.close());

const subs = (token?: string) => h.client(SubscriptionService, { token });

async function subscribe(token: string, region = "") {
  const { session } = await subs(token).checkoutSubscription({ id: planId, region, successPath: "/shop/plans" });
  await h.client(ProductService, { token }).completeDevCheckout({ session: session!.sessionId });
}

describe("subscriptions", () => {
  it("lists the plans (recurring products, cheapest first) to anyone", async () => {
    const { products } = await subs().listSubscriptionProducts({});
    expect(products.map((p) => p.level)).toEqual(["silver", "gold"]);
  });

  it("checkout through the development page makes the caller's current plan; a second checkout is 409", async () => {
    const u = await h.user();
    expect(await subs(u.token).listMySubscriptions({})).toMatchObject({ level: "", subscriptions: [] });
    await subscribe(u.token, "eu");
    const mine = await subs(u.token).listMySubscriptions({});
    expect(mine).toMatchObject({ level: "silver", total: 1, subscriptions: [{ status: "active", region: "eu" }] });
    expect(await refusal(subs(u.token).checkoutSubscription({ id: planId }))).toEqual({
      code: Code.AlreadyExists,
      message: "you already have this subscription",
    });
    const oneTime = (await h.client(ProductService).listProducts({})).products.find((p) => p.name === "Tokens")!;
    expect((await refusal(subs(u.token).checkoutSubscription({ id: oneTime.id }))).message).toBe(
      "product is not a subscription plan",
    );
    expect((await refusal(subs().checkoutSubscription({ id: planId }))).code).toBe(Code.Unauthenticated);
  });

  it("a user's subscriptions: themselves, admins, staff and services; anyone else 401", async () => {
    const u = await h.user();
    await subscribe(u.token);
    for (const token of [u.token, admin, await h.tokens.user("staff"), await h.tokens.service("room")]) {
      expect((await subs(token).listUserSubscriptions({ id: u.uuid })).level).toBe("silver");
    }
    for (const token of [await h.tokens.user("user"), await h.tokens.user("moderator"), undefined]) {
      expect((await refusal(subs(token).listUserSubscriptions({ id: u.uuid }))).code).toBe(Code.Unauthenticated);
    }
    expect((await refusal(subs(admin).listUserSubscriptions({ id: "x" }))).code).toBe(Code.InvalidArgument);
    expect((await refusal(subs(admin).listUserSubscriptions({ id: u.uuid, limit: 101 }))).code).toBe(
      Code.InvalidArgument,
    );
  });

  it("the portal: 404 without a subscription, a URL with one", async () => {
    const u = await h.user();
    expect(await refusal(subs(u.token).createPortalSession({}))).toEqual({
      code: Code.NotFound,
      message: "no subscription to manage",
    });
    await subscribe(u.token);
    expect((await subs(u.token).createPortalSession({ returnPath: "/shop/plans" })).url).toBe("/shop/plans");
  });

  it("count by startDate, endDate, region and level: admins and staff only", async () => {
    const u = await h.user();
    await subscribe(u.token, "count-region");
    const count = (q: Record<string, string>) =>
      subs(admin)
        .countSubscriptions(q)
        .then((r) => r.count);
    expect(await count({ region: "count-region" })).toBe(1);
    expect(await count({ region: "count-region", level: "gold" })).toBe(0);
    expect(await count({ region: "count-region", startDate: "2000-01-01", endDate: "2999-01-01" })).toBe(1);
    expect(await count({ region: "count-region", startDate: "2999-01-01" })).toBe(0);
    expect(await refusal(subs(admin).countSubscriptions({ startDate: "yesterday" }))).toEqual({
      code: Code.InvalidArgument,
      message: "startDate must be an ISO 8601 date",
    });
    // Regression: year 0 parses in JavaScript but not in PostgreSQL (it made a 500).
    expect((await refusal(subs(admin).countSubscriptions({ endDate: "0000-01-01" }))).code).toBe(Code.InvalidArgument);
    expect((await refusal(subs(u.token).countSubscriptions({}))).code).toBe(Code.Unauthenticated);
  });
});
