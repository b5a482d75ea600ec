// The Stripe client against a local fake that records requests: Stripe's paths, form encoding and bearer key.
import { startFakeServer, type FakeServer } from "@tt/kit/testing";
import { ProviderError } from "@tt/providers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { developmentProvider, stripeProvider } from "./payment-provider.ts";

let fake: FakeServer;
beforeAll(async () => {
  fake = await startFakeServer((req) => {
    if (req.path === "/v1/checkout/sessions")
      return { status: 200, json: { id: "cs_test_1", url: "https://checkout.stripe.com/c/cs_test_1" } };
    if (req.path === "/v1/billing_portal/sessions")
      return { status: 200, json: { id: "bps_1", url: "https://billing.stripe.com/p/1" } };
    if (req.path === "/v1/subscriptions/sub_1")
      return {
        status: 200,
        json: { id: "sub_1", status: "active", customer: "cus_1", current_period_end: 1_800_000_000 },
      };
    return { status: 404, json: { error: { message: "No such subscription" } } };
  });
});
afterAll(() => fake?.close());

describe("stripeProvider", () => {
  const stripe = () => stripeProvider({ secretKey: "sk_test_x", baseUrl: fake.url, timeoutMs: 2000 });

  it("creates a Checkout Session with form-encoded line items, client_reference_id and metadata", async () => {
    const session = await stripe().createCheckoutSession({
      mode: "payment",
      clientReferenceId: "chk-1",
      priceId: "",
      quantity: 2,
      productName: "100 tokens",
      unitAmount: 499,
      currency: "usd",
      successUrl: "https://tt.example/shop",
      cancelUrl: "https://tt.example/shop",
      metadata: { checkout_id: "chk-1" },
    });
    expect(session).toEqual({ id: "cs_test_1", url: "https://checkout.stripe.com/c/cs_test_1" });
    const req = fake.requests.at(-1)!;
    expect(req.method).toBe("POST");
    expect(req.headers.authorization).toBe("Bearer sk_test_x");
    expect(req.headers["content-type"]).toMatch(/application\/x-www-form-urlencoded/);
    expect(req.form).toMatchObject({
      mode: "payment",
      client_reference_id: "chk-1",
      "line_items[0][quantity]": "2",
      "line_items[0][price_data][unit_amount]": "499",
      "line_items[0][price_data][currency]": "usd",
      "line_items[0][price_data][product_data][name]": "100 tokens",
      "metadata[checkout_id]": "chk-1",
    });
  });

  it("uses a configured price, the billing portal and reads a subscription", async () => {
    await stripe().createCheckoutSession({
      mode: "subscription",
      clientReferenceId: "c",
      priceId: "price_1",
      quantity: 1,
      productName: "Gold",
      unitAmount: 0,
      currency: "usd",
      successUrl: "https://x/s",
      cancelUrl: "https://x/c",
      customerId: "cus_1",
      metadata: {},
    });
    expect(fake.requests.at(-1)!.form).toMatchObject({
      mode: "subscription",
      "line_items[0][price]": "price_1",
      customer: "cus_1",
    });
    expect(await stripe().createPortalSession({ customerId: "cus_1", returnUrl: "https://x/r" })).toEqual({
      url: "https://billing.stripe.com/p/1",
    });
    expect(fake.requests.at(-1)!.form).toEqual({ customer: "cus_1", return_url: "https://x/r" });
    expect(await stripe().getSubscription("sub_1")).toEqual({
      id: "sub_1",
      status: "active",
      customerId: "cus_1",
      currentPeriodEnd: new Date(1_800_000_000_000),
    });
    await expect(stripe().getSubscription("sub_missing")).rejects.toBeInstanceOf(ProviderError);
  });
});

describe("developmentProvider", () => {
  it("answers the local pay page", async () => {
    const s = await developmentProvider("").createCheckoutSession({} as never);
    expect(s.url).toBe(`/api/payment-service/dev-checkout/${s.id}`);
    expect(s.id).toMatch(/^dev_cs_[0-9a-f]{32}$/);
  });
});
