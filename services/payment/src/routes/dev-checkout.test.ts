// Issue 23 finding 1: free tokens in production. The development checkout pays for nothing, so it exists only
// where the development defaults are meant (never under NODE_ENV=production unless a loud variable allows it,
// and a warn line says it is on), only the buyer completes their own session, and a checkout's quantity is
// bounded.
import { Writable } from "node:stream";
import { Code } from "@connectrpc/connect";
import { createLogger } from "@tt/kit";
import { ProductService } from "@tt/proto/tt/payment/v1/product_service_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPaymentHarness, refusal, type PaymentHarness } from "../testing/payment-harness.ts";
import { MAX_CHECKOUT_QUANTITY } from "./products.ts";

let h: PaymentHarness;
let admin: string;
const lines: Array<{ level: number; msg: string }> = [];
beforeAll(async () => {
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  h = await createPaymentHarness({}, [], createLogger({ service: "payment-test", level: "info", destination }));
  admin = await h.tokens.user("admin");
});
afterAll(() => h?.close());

const products = (token?: string) => h.client(ProductService, { token });
const WARN = 40;

async function checkout(token: string, quantity = 1) {
  const { product } = await products(admin).createProduct({ name: "Tokens", price: 100 });
  const { session } = await products(token).checkoutProduct({ id: product!.id, quantity, successPath: "/shop" });
  return session!.sessionId;
}

describe("issue 23 finding 1: the development checkout", () => {
  it("is refused at start under NODE_ENV=production, by default and when named, unless the loud variable allows it", async () => {
    for (const env of [{ NODE_ENV: "production" }, { NODE_ENV: "production", PAYMENT_PROVIDER: "development" }]) {
      await expect(h.createInstance({ ...env })).rejects.toThrow(/PAYMENT_ALLOW_DEVELOPMENT_CHECKOUT_IN_PRODUCTION/);
    }
    await expect(
      h.createInstance({ NODE_ENV: "production", PAYMENT_ALLOW_DEVELOPMENT_CHECKOUT_IN_PRODUCTION: "yes" }),
    ).rejects.toThrow(/PAYMENT_ALLOW_DEVELOPMENT_CHECKOUT_IN_PRODUCTION/);
    const before = lines.length;
    await h.createInstance({ NODE_ENV: "production", PAYMENT_ALLOW_DEVELOPMENT_CHECKOUT_IN_PRODUCTION: "true" });
    const warned = lines.slice(before).filter((l) => l.level === WARN);
    expect(warned.map((l) => l.msg).join("\n")).toMatch(/development checkout.*production/i);
    // Stripe under production starts as before.
    await h.createInstance({
      NODE_ENV: "production",
      PAYMENT_PROVIDER: "stripe",
      STRIPE_SECRET_KEY: "sk_test_x",
      STRIPE_WEBHOOK_SECRET: "whsec_x",
      PAYMENT_PUBLIC_URL: "https://music.example.org",
    });
  });

  it("says in a warn line at start that it is on, outside production too", () => {
    expect(lines.filter((l) => l.level === WARN).map((l) => l.msg)).toContainEqual(
      expect.stringMatching(/development checkout is on/i),
    );
  });

  it("is completed by the buyer alone: 401 without a token, 404 for another user's session, 200 for the buyer", async () => {
    const buyer = await h.user();
    const session = await checkout(buyer.token);
    expect(await refusal(products().completeDevCheckout({ session }))).toMatchObject({ code: Code.Unauthenticated });
    const stranger = await h.user();
    expect(await refusal(products(stranger.token).completeDevCheckout({ session }))).toEqual({
      code: Code.NotFound,
      message: "checkout session not found",
    });
    expect((await refusal(products(await h.tokens.guest()).completeDevCheckout({ session }))).code).toBe(
      Code.Unauthenticated,
    );
    expect((await products(buyer.token).completeDevCheckout({ session })).redirect).toBe("/shop");
  });

  it("the pay page sends the buyer's token from the web apps' session when it completes", async () => {
    const buyer = await h.user();
    const session = await checkout(buyer.token);
    const page = new TextDecoder().decode((await products().getDevCheckoutPage({ session })).body!.data);
    expect(page).toContain('localStorage.getItem("tt-session")');
    expect(page).toContain("headers.authorization = `Bearer ${token}`");
  });

  it(`bounds quantity at ${MAX_CHECKOUT_QUANTITY}: 400 naming quantity above it`, async () => {
    expect(MAX_CHECKOUT_QUANTITY).toBe(100);
    const buyer = await h.user();
    await checkout(buyer.token, MAX_CHECKOUT_QUANTITY);
    const { product } = await products(admin).createProduct({ name: "Tokens", price: 100 });
    for (const quantity of [MAX_CHECKOUT_QUANTITY + 1, 2_147_483_647, -1]) {
      const refused = await refusal(products(buyer.token).checkoutProduct({ id: product!.id, quantity }));
      expect(refused.code, String(quantity)).toBe(Code.InvalidArgument);
      expect(refused.message, String(quantity)).toMatch(/quantity/);
    }
  });
});
