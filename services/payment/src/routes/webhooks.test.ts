import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Code } from "@connectrpc/connect";
import { merchServiceDefinition } from "@tt/merch-service";
import { TokenService } from "@tt/proto/tt/merch/v1/token_service_pb";
import { ProductService } from "@tt/proto/tt/payment/v1/product_service_pb";
import { SubscriptionService } from "@tt/proto/tt/payment/v1/subscription_service_pb";
import { WebhookService } from "@tt/proto/tt/payment/v1/webhook_service_pb";
import { CompactSign, importPKCS8 } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stripeSignatureHeader } from "../modules/stripe-signature.ts";
import { createPaymentHarness, refusal, WEBHOOK_SECRET, type PaymentHarness } from "../testing/payment-harness.ts";
import { eventually } from "@tt/kit/testing";

// A generated CA chain (root → intermediate → leaf, P-256) standing in for Apple's.
const dir = mkdtempSync(join(tmpdir(), "apple-ca-"));
function openssl(...args: string[]) {
  execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
}
function makeChain(prefix: string) {
  const key = (n: string) =>
    openssl("ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", `${prefix}${n}.key`);
  const ext = `${prefix}ca.ext`;
  require_write(join(dir, ext), "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n");
  key("root");
  openssl(
    "req",
    "-x509",
    "-new",
    "-key",
    `${prefix}root.key`,
    "-subj",
    `/CN=${prefix}Root`,
    "-days",
    "3650",
    "-out",
    `${prefix}root.pem`,
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign,cRLSign",
  );
  key("int");
  openssl("req", "-new", "-key", `${prefix}int.key`, "-subj", `/CN=${prefix}Intermediate`, "-out", `${prefix}int.csr`);
  openssl(
    "x509",
    "-req",
    "-in",
    `${prefix}int.csr`,
    "-CA",
    `${prefix}root.pem`,
    "-CAkey",
    `${prefix}root.key`,
    "-CAcreateserial",
    "-days",
    "3650",
    "-extfile",
    ext,
    "-out",
    `${prefix}int.pem`,
  );
  key("leaf");
  openssl("pkcs8", "-topk8", "-nocrypt", "-in", `${prefix}leaf.key`, "-out", `${prefix}leaf.p8`);
  openssl("req", "-new", "-key", `${prefix}leaf.key`, "-subj", `/CN=${prefix}Leaf`, "-out", `${prefix}leaf.csr`);
  openssl(
    "x509",
    "-req",
    "-in",
    `${prefix}leaf.csr`,
    "-CA",
    `${prefix}int.pem`,
    "-CAkey",
    `${prefix}int.key`,
    "-CAcreateserial",
    "-days",
    "3650",
    "-out",
    `${prefix}leaf.pem`,
  );
  const der = (n: string) => readFileSync(join(dir, `${prefix}${n}.pem`), "utf8").replace(/-----[^-]+-----|\s/g, "");
  return {
    rootPem: readFileSync(join(dir, `${prefix}root.pem`), "utf8"),
    x5c: [der("leaf"), der("int"), der("root")],
    leafKey: readFileSync(join(dir, `${prefix}leaf.p8`), "utf8"),
  };
}
function require_write(path: string, text: string) {
  execFileSync("sh", ["-c", `cat > '${path}'`], { input: text });
}
const apple = makeChain("a");
const stranger = makeChain("b");

let h: PaymentHarness;
let admin: string;
beforeAll(async () => {
  h = await createPaymentHarness({ APPLE_ROOT_CA_PEM: apple.rootPem }, [merchServiceDefinition]);
  admin = await h.tokens.user("admin");
}, 60_000);
afterAll(async () => {
  await h?.close();
  rmSync(dir, { recursive: true, force: true });
});

const webhooks = () => h.client(WebhookService);
const json = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));

function stripe(event: unknown, opts: { secret?: string; at?: number; header?: string } = {}) {
  const data = json(event);
  const header =
    opts.header ??
    stripeSignatureHeader(opts.secret ?? WEBHOOK_SECRET, Buffer.from(data), opts.at ?? Math.floor(Date.now() / 1000));
  return webhooks().stripeWebhook(
    { body: { contentType: "application/json", data } },
    { headers: { "stripe-signature": header } },
  );
}

async function bundleCheckout(tokens: number) {
  const { product } = await h.client(ProductService, { token: admin }).createProduct({ name: "Bundle", price: 99 });
  await h.client(TokenService, { token: admin }).createTokenBundle({ productId: product!.id, name: "b", tokens });
  const buyer = await h.user();
  const { session } = await h.client(ProductService, { token: buyer.token }).checkoutProduct({ id: product!.id });
  return { product: product!, buyer, session: session! };
}

const balance = async (token: string) =>
  (
    await h
      .client(TokenService, { token })
      .getSelfTokenAccount({})
      .catch(() => ({ account: { balance: 0 } }))
  ).account!.balance;

describe("POST /webhook/stripe", () => {
  it("refuses a missing, expired, wrong-secret or tampered signature with 400", async () => {
    const event = { id: "evt_refused", type: "checkout.session.completed", data: { object: {} } };
    const old = Math.floor(Date.now() / 1000) - 301;
    for (const call of [
      stripe(event, { header: "" }),
      stripe(event, { at: old }),
      stripe(event, { secret: "whsec_wrong" }),
      webhooks().stripeWebhook(
        { body: { contentType: "application/json", data: json({ ...event, id: "evt_tampered" }) } },
        {
          headers: {
            "stripe-signature": stripeSignatureHeader(
              WEBHOOK_SECRET,
              JSON.stringify(event),
              Math.floor(Date.now() / 1000),
            ),
          },
        },
      ),
    ]) {
      expect(await refusal(call)).toEqual({ code: Code.InvalidArgument, message: "invalid Stripe signature" });
    }
    // Signed but not an event.
    expect((await refusal(stripe({ nope: 1 }))).message).toBe("invalid Stripe event");
  });

  it("a duplicated checkout.session.completed credits the token bundle once", async () => {
    const { buyer, session } = await bundleCheckout(250);
    const event = {
      id: "evt_dup_1",
      type: "checkout.session.completed",
      data: { object: { id: session.sessionId, mode: "payment", payment_status: "paid" } },
    };
    expect(await stripe(event)).toMatchObject({ received: true, applied: true });
    expect(await stripe(event)).toMatchObject({ received: true, applied: false });
    // Another event for the same session changes nothing either.
    expect(await stripe({ ...event, id: "evt_dup_2" })).toMatchObject({ applied: true });
    await eventually(
      "the buyer's balance",
      () => balance(buyer.token),
      (b) => b === 250,
    );
    // A later purchase is credited: once it lands, the first one has certainly been handled once only.
    const second = await h.client(ProductService, { token: buyer.token }).checkoutProduct({
      id: (await h.client(ProductService).listProducts({ limit: 1 })).products[0]!.id,
    });
    await h.client(ProductService, { token: buyer.token }).completeDevCheckout({ session: second.session!.sessionId });
    await eventually(
      "the buyer's balance",
      () => balance(buyer.token),
      (b) => b === 500,
    );
  });

  it("subscription events set and clear the level", async () => {
    const products = h.client(ProductService, { token: admin });
    const { product } = await products.createProduct({ name: "Gold", paymentType: "recurring", level: "gold" });
    const buyer = await h.user();
    const { session } = await h
      .client(SubscriptionService, { token: buyer.token })
      .checkoutSubscription({ id: product!.id });
    await stripe({
      id: "evt_sub_1",
      type: "checkout.session.completed",
      data: { object: { id: session!.sessionId, mode: "subscription", subscription: "sub_1", customer: "cus_1" } },
    });
    const mine = () => h.client(SubscriptionService, { token: buyer.token }).listMySubscriptions({});
    expect((await mine()).level).toBe("gold");
    await stripe({
      id: "evt_sub_2",
      type: "customer.subscription.deleted",
      data: { object: { id: "sub_1", status: "canceled" } },
    });
    expect(await mine()).toMatchObject({ level: "", subscriptions: [{ status: "canceled" }] });
  });
});

async function appleNotification(chain: typeof apple, payload: Record<string, unknown>) {
  const key = await importPKCS8(chain.leafKey, "ES256");
  const sign = (p: unknown) => new CompactSign(json(p)).setProtectedHeader({ alg: "ES256", x5c: chain.x5c }).sign(key);
  return sign(payload);
}

describe("POST /webhook/apple", () => {
  it("verifies the x5c chain to the configured root, credits a one-time purchase once, refuses others with 400", async () => {
    const { product } = await h.client(ProductService, { token: admin }).createProduct({ name: "AppleBundle" });
    await h.client(TokenService, { token: admin }).createTokenBundle({ productId: product!.id, name: "a", tokens: 40 });
    const buyer = await h.user();
    const signedTransactionInfo = await appleNotification(apple, {
      productId: product!.id,
      appAccountToken: buyer.uuid,
      transactionId: "1000001",
      originalTransactionId: "1000001",
      signedDate: Date.now(),
    });
    const notification = {
      notificationType: "ONE_TIME_CHARGE",
      notificationUUID: "9b7a6c1e-1111-4c2b-9c1d-000000000001",
      signedDate: Date.now(),
      data: { signedTransactionInfo },
    };
    const send = async (payload: string) =>
      webhooks().appleWebhook({ body: { contentType: "application/json", data: json({ signedPayload: payload }) } });
    const signed = await appleNotification(apple, notification);
    expect(await send(signed)).toMatchObject({ applied: true });
    expect(await send(signed)).toMatchObject({ applied: false });
    await eventually(
      "the buyer's balance",
      () => balance(buyer.token),
      (b) => b === 40,
    );

    const foreign = await appleNotification(stranger, notification);
    const tampered = signed.slice(0, signed.lastIndexOf(".") + 1) + "AAAA";
    for (const bad of [foreign, tampered, "not.a.jws", ""]) {
      expect(await refusal(send(bad))).toEqual({
        code: Code.InvalidArgument,
        message: "invalid App Store notification",
      });
    }
    expect(
      (await refusal(webhooks().appleWebhook({ body: { contentType: "text/plain", data: json("x").slice(1) } }))).code,
    ).toBe(Code.InvalidArgument);
  });
});
