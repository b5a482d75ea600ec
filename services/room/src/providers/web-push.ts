// Web push (RFC 8030) with VAPID (RFC 8292) and the aes128gcm payload encryption of RFC 8291, written with
// node:crypto and jose: the `web-push` package is not installed in this workspace (docs/decisions.md), and the
// protocol is small. A push is one POST of the encrypted payload to the subscription's endpoint.
import {
  createCipheriv,
  createECDH,
  createHmac,
  createPrivateKey,
  generateKeyPairSync,
  randomBytes,
  type KeyObject,
} from "node:crypto";
import { SignJWT } from "jose";
import { ProviderError } from "@tt/kit";

export interface VapidKeys {
  /** The uncompressed P-256 public key, base64url (what browsers take as applicationServerKey). */
  publicKey: string;
  /** The private scalar d, base64url. */
  privateKey: string;
  /** A mailto: or https: contact for the push services. */
  subject: string;
}

export interface WebPushSubscriptionKeys {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export type WebPushResult = { ok: true } | { ok: false; gone: boolean; reason: string };

export interface WebPushSender {
  send(subscription: WebPushSubscriptionKeys, payload: string): Promise<WebPushResult>;
}

const b64u = (buf: Buffer) => buf.toString("base64url");

/** A new VAPID key pair. */
export function generateVapidKeys(): { publicKey: string; privateKey: string } {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const pub = publicKey.export({ format: "jwk" });
  const priv = privateKey.export({ format: "jwk" });
  const raw = Buffer.concat([Buffer.from([4]), Buffer.from(pub.x!, "base64url"), Buffer.from(pub.y!, "base64url")]);
  return { publicKey: b64u(raw), privateKey: priv.d! };
}

function vapidPrivateKey(keys: VapidKeys): KeyObject {
  const raw = Buffer.from(keys.publicKey, "base64url");
  if (raw.length !== 65 || raw[0] !== 4)
    throw new Error("VAPID_PUBLIC_KEY must be an uncompressed P-256 key (base64url)");
  return createPrivateKey({
    key: { kty: "EC", crv: "P-256", x: b64u(raw.subarray(1, 33)), y: b64u(raw.subarray(33)), d: keys.privateKey },
    format: "jwk",
  });
}

const hmac = (key: Buffer, data: Buffer) => createHmac("sha256", key).update(data).digest();

/** RFC 8291 §3.4: the aes128gcm body for one record (salt, record size, sender key, ciphertext). */
export function encryptPayload(p256dh: string, authSecret: string, payload: Buffer): Buffer {
  const uaPublic = Buffer.from(p256dh, "base64url");
  const auth = Buffer.from(authSecret, "base64url");
  if (uaPublic.length !== 65 || uaPublic[0] !== 4) throw new Error("p256dh is not an uncompressed P-256 key");
  if (auth.length < 16) throw new Error("auth is shorter than 16 bytes");
  const ecdh = createECDH("prime256v1");
  const asPublic = ecdh.generateKeys();
  const secret = ecdh.computeSecret(uaPublic);
  const prkKey = hmac(auth, secret);
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), uaPublic, asPublic, Buffer.from([1])]);
  const ikm = hmac(prkKey, keyInfo);
  const salt = randomBytes(16);
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from("Content-Encoding: aes128gcm\0\x01")).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from("Content-Encoding: nonce\0\x01")).subarray(0, 12);
  const cipher = createCipheriv("aes-128-gcm", cek, nonce);
  // One record: the payload and the last-record delimiter 0x02, no padding.
  const body = Buffer.concat([
    cipher.update(Buffer.concat([payload, Buffer.from([2])])),
    cipher.final(),
    cipher.getAuthTag(),
  ]);
  const rs = Buffer.alloc(4);
  rs.writeUInt32BE(4096);
  return Buffer.concat([salt, rs, Buffer.from([asPublic.length]), asPublic, body]);
}

export interface WebPushOptions {
  vapid: VapidKeys;
  timeoutMs: number;
  /** Seconds the push service keeps an undelivered message. */
  ttlSeconds: number;
  /** Plain-http endpoints are refused unless allowed (tests and local push services). */
  allowHttp: boolean;
}

export function createWebPushSender(options: WebPushOptions): WebPushSender {
  const key = vapidPrivateKey(options.vapid);
  const jwts = new Map<string, { jwt: string; expiresAt: number }>();

  async function vapidJwt(audience: string): Promise<string> {
    const hit = jwts.get(audience);
    if (hit && hit.expiresAt > Date.now() + 60_000) return hit.jwt;
    const exp = Math.floor(Date.now() / 1000) + 12 * 3600;
    const jwt = await new SignJWT({})
      .setProtectedHeader({ alg: "ES256", typ: "JWT" })
      .setAudience(audience)
      .setSubject(options.vapid.subject)
      .setExpirationTime(exp)
      .sign(key);
    jwts.set(audience, { jwt, expiresAt: exp * 1000 });
    return jwt;
  }

  return {
    async send(subscription, payload) {
      const url = new URL(subscription.endpoint);
      if (url.protocol !== "https:" && !(options.allowHttp && url.protocol === "http:")) {
        return { ok: false, gone: true, reason: "endpoint is not https" };
      }
      let body: Buffer;
      try {
        body = encryptPayload(subscription.p256dh, subscription.auth, Buffer.from(payload, "utf8"));
      } catch (error) {
        return { ok: false, gone: true, reason: error instanceof Error ? error.message : "bad keys" };
      }
      let response: Response;
      try {
        response = await fetch(url, {
          method: "POST",
          headers: {
            authorization: `vapid t=${await vapidJwt(url.origin)}, k=${options.vapid.publicKey}`,
            "content-encoding": "aes128gcm",
            "content-type": "application/octet-stream",
            ttl: String(options.ttlSeconds),
            urgency: "normal",
          },
          body: new Uint8Array(body),
          signal: AbortSignal.timeout(options.timeoutMs),
          redirect: "error",
        });
        await response.arrayBuffer();
      } catch (error) {
        throw new ProviderError("web-push", "unavailable", "push service could not be reached", undefined, {
          cause: error,
        });
      }
      if (response.ok) return { ok: true };
      // 404 and 410: the subscription expired or was removed; anything else is a failure of this push only.
      return { ok: false, gone: response.status === 404 || response.status === 410, reason: `HTTP ${response.status}` };
    },
  };
}
