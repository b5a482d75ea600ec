// Web push against a local fake push service that records the request and decrypts it as a browser would
// (RFC 8291 aes128gcm with the subscription's private key), and checks the VAPID JWT (RFC 8292).
import { createDecipheriv, createECDH, createHmac, createPublicKey, randomBytes } from "node:crypto";
import { decodeJwt, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeServer, type FakeServer } from "@tt/kit/testing";
import { createWebPushSender, generateVapidKeys } from "./web-push.ts";

let fake: FakeServer;
beforeAll(async () => {
  fake = await startFakeServer((req) => (req.path === "/gone" ? { status: 410, text: "" } : { status: 201, text: "" }));
});
afterAll(() => fake?.close());

/** A browser's side of a subscription. */
function browser() {
  const ecdh = createECDH("prime256v1");
  const publicKey = ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    ecdh,
    p256dh: publicKey.toString("base64url"),
    auth: auth.toString("base64url"),
    authBytes: auth,
    publicKey,
  };
}

const hmac = (key: Buffer, data: Buffer) => createHmac("sha256", key).update(data).digest();

function decrypt(b: ReturnType<typeof browser>, body: Buffer): string {
  const salt = body.subarray(0, 16);
  const idlen = body[20]!;
  const asPublic = body.subarray(21, 21 + idlen);
  const ciphertext = body.subarray(21 + idlen);
  const secret = b.ecdh.computeSecret(asPublic);
  const ikm = hmac(
    hmac(b.authBytes, secret),
    Buffer.concat([Buffer.from("WebPush: info\0"), b.publicKey, asPublic, Buffer.from([1])]),
  );
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from("Content-Encoding: aes128gcm\0\x01")).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from("Content-Encoding: nonce\0\x01")).subarray(0, 12);
  const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const plain = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  expect(plain[plain.length - 1]).toBe(2);
  return plain.subarray(0, plain.length - 1).toString("utf8");
}

describe("web push (VAPID, aes128gcm)", () => {
  it("posts the encrypted payload with a VAPID authorization the push service can verify", async () => {
    const vapid = { ...generateVapidKeys(), subject: "mailto:ops@example.test" };
    const sender = createWebPushSender({ vapid, timeoutMs: 5000, ttlSeconds: 60, allowHttp: true });
    const b = browser();
    const result = await sender.send(
      { endpoint: `${fake.url}/push/abc`, p256dh: b.p256dh, auth: b.auth },
      '{"title":"Hi"}',
    );
    expect(result).toEqual({ ok: true });

    const req = fake.requests.find((r) => r.path === "/push/abc")!;
    expect(req.headers["content-encoding"]).toBe("aes128gcm");
    expect(req.headers.ttl).toBe("60");
    const match = /^vapid t=([^,]+), k=(.+)$/.exec(String(req.headers.authorization))!;
    expect(match[2]).toBe(vapid.publicKey);
    const raw = Buffer.from(vapid.publicKey, "base64url");
    const key = createPublicKey({
      key: {
        kty: "EC",
        crv: "P-256",
        x: raw.subarray(1, 33).toString("base64url"),
        y: raw.subarray(33).toString("base64url"),
      },
      format: "jwk",
    });
    await jwtVerify(match[1]!, key, { audience: fake.url });
    expect(decodeJwt(match[1]!).sub).toBe("mailto:ops@example.test");
  });

  it("the payload decrypts with the browser's key", async () => {
    const captured: Buffer[] = [];
    const { createServer } = await import("node:http");
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        captured.push(Buffer.concat(chunks));
        res.writeHead(201).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const sender = createWebPushSender({
        vapid: { ...generateVapidKeys(), subject: "mailto:a@b.test" },
        timeoutMs: 5000,
        ttlSeconds: 60,
        allowHttp: true,
      });
      const b = browser();
      await sender.send(
        { endpoint: `http://127.0.0.1:${port}/p`, p256dh: b.p256dh, auth: b.auth },
        '{"title":"Ünïcode ✓"}',
      );
      expect(decrypt(b, captured[0]!)).toBe('{"title":"Ünïcode ✓"}');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("says a subscription is gone on 410, and refuses plain http unless allowed", async () => {
    const vapid = { ...generateVapidKeys(), subject: "mailto:ops@example.test" };
    const b = browser();
    const sender = createWebPushSender({ vapid, timeoutMs: 5000, ttlSeconds: 60, allowHttp: true });
    expect(await sender.send({ endpoint: `${fake.url}/gone`, p256dh: b.p256dh, auth: b.auth }, "x")).toEqual({
      ok: false,
      gone: true,
      reason: "HTTP 410",
    });
    const strict = createWebPushSender({ vapid, timeoutMs: 5000, ttlSeconds: 60, allowHttp: false });
    const before = fake.requests.length;
    expect(await strict.send({ endpoint: `${fake.url}/push/x`, p256dh: b.p256dh, auth: b.auth }, "x")).toMatchObject({
      ok: false,
      gone: true,
    });
    expect(fake.requests.length).toBe(before);
  });
});
