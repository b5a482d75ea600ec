// The payment service through the gateway (issue 16): the Stripe webhook's raw body crosses the gateway
// byte-exact with its Stripe-Signature header; refusals are 400; a duplicated event credits a token bundle once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stripeSignatureHeader } from "@tt/payment-service";
import { startTestPlatform, type TestPlatform } from "./support/platform.ts";
import { eventually } from "@tt/kit/testing";

const SECRET = "whsec_e2e";
const p = (path: string) => `/api/payment-service${path}`;

let platform: TestPlatform;
let admin: string;
beforeAll(async () => {
  platform = await startTestPlatform({ env: { STRIPE_WEBHOOK_SECRET: SECRET } });
  admin = await platform.adminToken();
});
afterAll(() => platform?.close());

const sign = (raw: string, secret = SECRET, at = Math.floor(Date.now() / 1000)) =>
  stripeSignatureHeader(secret, raw, at);

describe("payment webhooks through the gateway", () => {
  it("refuses a missing, expired, wrong-secret or tampered signature with 400", async () => {
    const raw = '{"id":"evt_e2e_refused","type":"ping","data":{"object":{}}}';
    for (const header of [
      undefined,
      "t=1,v1=00",
      sign(raw, SECRET, Math.floor(Date.now() / 1000) - 400),
      sign(raw, "whsec_wrong"),
      sign(raw.replace("ping", "pong")),
    ]) {
      const res = await platform.call("POST", p("/webhook/stripe"), {
        raw,
        headers: header ? { "stripe-signature": header } : {},
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message: "invalid Stripe signature" });
    }
    const apple = await platform.call("POST", p("/webhook/apple"), { raw: '{"signedPayload":"a.b.c"}' });
    expect(apple.status).toBe(400);
  });

  it("buying a token bundle: checkout, the development page, a signed duplicated webhook; the balance rises once", async () => {
    const product = await platform.call("POST", p("/api/v1/products"), {
      token: admin,
      body: { name: "e2e bundle", price: 199, paymentType: "one_time" },
    });
    expect(product.status).toBe(200);
    const productId = (product.body as { id: string }).id;
    const bundle = await platform.call("POST", "/api/merch-service/api/v1/token-bundles", {
      token: admin,
      body: { productId, name: "e2e", tokens: 70 },
    });
    expect(bundle.status).toBe(200);
    const { token } = await platform.signUp();
    const checkout = await platform.call("POST", p(`/api/v1/products/${productId}/checkout`), { token, body: {} });
    expect(checkout.status).toBe(200);
    const session = checkout.body as { sessionId: string; url: string };
    const page = await fetch(`${platform.url}${session.url}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
    expect(await page.text()).toContain("e2e bundle");

    // Pretty-printed on purpose: the signature is over these exact bytes.
    const raw = JSON.stringify(
      {
        id: "evt_e2e_1",
        type: "checkout.session.completed",
        data: { object: { id: session.sessionId, mode: "payment", payment_status: "paid" } },
      },
      null,
      2,
    );
    for (let i = 0; i < 2; i++) {
      const res = await platform.call("POST", p("/webhook/stripe"), {
        raw,
        headers: { "stripe-signature": sign(raw) },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ received: true, applied: i === 0 });
    }
    const balance = async () =>
      (
        (await platform.call("GET", "/api/merch-service/api/v1/token-accounts/self", { token })).body as {
          balance?: number;
        }
      ).balance ?? 0;
    expect(await eventually("the buyer's balance", balance, (b) => b === 70)).toBe(70);
    // The development page's own completion after the webhook changes nothing.
    const again = await platform.call("POST", p(`/dev-checkout/${session.sessionId}/complete`), { token, body: {} });
    expect(again.status).toBe(200);
    expect(await balance()).toBe(70);
  });

  it("the catalogue and subscriptions: reads are open, changes need admin (401)", async () => {
    expect((await platform.call("GET", p("/api/v1/products?limit=5&offset=0"))).status).toBe(200);
    expect((await platform.call("GET", p("/api/v1/products?limit=500"))).status).toBe(400);
    expect((await platform.call("GET", p("/subscription/products"))).status).toBe(200);
    const { token } = await platform.signUp();
    expect((await platform.call("POST", p("/api/v1/products"), { token, body: { name: "x" } })).status).toBe(401);
    expect((await platform.call("GET", p("/subscription"), { token })).status).toBe(200);
    expect((await platform.call("GET", p("/subscription/count"), { token })).status).toBe(401);
    expect((await platform.call("GET", p("/subscription/count?region=eu&level=gold"), { token: admin })).body).toEqual({
      count: 0,
    });
    expect((await platform.call("POST", p("/subscription/portal"), { token, body: {} })).status).toBe(404);
    expect((await platform.call("GET", p("/api/v1/products/not-a-uuid"))).status).toBe(400);
  });

  it("issue 23 finding 1: only the buyer completes a development checkout (401 without a token, 404 for another), and quantity is bounded", async () => {
    const product = await platform.call("POST", p("/api/v1/products"), { token: admin, body: { name: "Free?" } });
    const productId = (product.body as { id: string }).id;
    const buyer = await platform.signUp();
    const tooMany = await platform.call("POST", p(`/api/v1/products/${productId}/checkout`), {
      token: buyer.token,
      body: { quantity: 101 },
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({ message: expect.stringMatching(/quantity/) });
    const checkout = await platform.call("POST", p(`/api/v1/products/${productId}/checkout`), {
      token: buyer.token,
      body: { quantity: 100 },
    });
    expect(checkout.status).toBe(200);
    const complete = p(`/dev-checkout/${(checkout.body as { sessionId: string }).sessionId}/complete`);
    expect((await platform.call("POST", complete, { body: {} })).status).toBe(401);
    const stranger = await platform.signUp();
    const theirs = await platform.call("POST", complete, { token: stranger.token, body: {} });
    expect(theirs.status).toBe(404);
    expect(theirs.body).toMatchObject({ message: "checkout session not found" });
    expect((await platform.call("POST", complete, { token: buyer.token, body: {} })).status).toBe(200);
  });
});
