// Vectors made with Stripe's published scheme (https://docs.stripe.com/webhooks#verify-manually):
// signed_payload = "<t>.<body>", v1 = hex HMAC-SHA256(secret, signed_payload).
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { stripeSignatureHeader, verifyStripeSignature } from "./stripe-signature.ts";

const secret = "whsec_vector";
const body = Buffer.from('{"id":"evt_1","object":"event","type":"checkout.session.completed"}');
const t = 1_700_000_000;
const v1 = (s: string, ts = t, b: Buffer = body) =>
  createHmac("sha256", s)
    .update(`${ts}.${b.toString("utf8")}`)
    .digest("hex");

describe("verifyStripeSignature", () => {
  it("accepts a valid signature (and matches an independent HMAC)", () => {
    expect(stripeSignatureHeader(secret, body, t)).toBe(`t=${t},v1=${v1(secret)}`);
    expect(verifyStripeSignature(`t=${t},v1=${v1(secret)}`, body, [secret], t + 10)).toBe(true);
  });

  it("refuses a timestamp outside the 300 s tolerance, either way", () => {
    expect(verifyStripeSignature(`t=${t},v1=${v1(secret)}`, body, [secret], t + 301)).toBe(false);
    expect(verifyStripeSignature(`t=${t},v1=${v1(secret)}`, body, [secret], t - 301)).toBe(false);
    expect(verifyStripeSignature(`t=${t},v1=${v1(secret)}`, body, [secret], t + 300)).toBe(true);
  });

  it("refuses the wrong secret and a tampered body", () => {
    expect(verifyStripeSignature(`t=${t},v1=${v1("whsec_other")}`, body, [secret], t)).toBe(false);
    const tampered = Buffer.from(body.toString().replace("evt_1", "evt_2"));
    expect(verifyStripeSignature(`t=${t},v1=${v1(secret)}`, tampered, [secret], t)).toBe(false);
    // A re-serialised body (whitespace) is another body: the raw bytes are what is signed.
    const spaced = Buffer.from(JSON.stringify(JSON.parse(body.toString()), null, 1));
    expect(verifyStripeSignature(`t=${t},v1=${v1(secret)}`, spaced, [secret], t)).toBe(false);
  });

  it("accepts any of several v1 signatures and any of several secrets; ignores v0", () => {
    const header = `t=${t},v1=${v1("whsec_old")},v1=${v1(secret)},v0=${v1(secret)}`;
    expect(verifyStripeSignature(header, body, [secret], t)).toBe(true);
    expect(verifyStripeSignature(`t=${t},v1=${v1("whsec_old")}`, body, ["whsec_new", "whsec_old"], t)).toBe(true);
    expect(verifyStripeSignature(`t=${t},v0=${v1(secret)}`, body, [secret], t)).toBe(false);
  });

  it("refuses malformed headers", () => {
    for (const header of [
      undefined,
      "",
      "garbage",
      `v1=${v1(secret)}`,
      `t=abc,v1=${v1(secret)}`,
      `t=${t}`,
      `t=${t},v1=zz`,
      `t=${t},v1=${v1(secret).slice(2)}`,
    ]) {
      expect(verifyStripeSignature(header, body, [secret], t)).toBe(false);
    }
    expect(verifyStripeSignature(`t=${t},v1=${v1(secret)}`, body, [], t)).toBe(false);
  });
});
