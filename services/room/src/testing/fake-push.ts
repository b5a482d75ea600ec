// One recording fake standing in for FCM (token grant and messages:send) and for browsers' push services, plus
// the room service's environment pointing at it: what the notification tests start the service with.
import { createECDH, generateKeyPairSync, randomBytes } from "node:crypto";
import { startFakeServer, type FakeServer } from "@tt/kit/testing";

export interface FakePush {
  server: FakeServer;
  env: Record<string, string>;
  /** The device tokens FCM was asked to push to, in order. */
  fcmTokens(): string[];
  /** The paths of the web push endpoints that were posted to. */
  webPushPaths(): string[];
  close(): Promise<void>;
}

/** Tokens FCM answers UNREGISTERED for, and web push paths that answer 410. */
export const GONE = "gone";

export async function startFakePush(): Promise<FakePush> {
  const server = await startFakeServer((req) => {
    if (req.path === "/token") return { status: 200, json: { access_token: "at", expires_in: 3600 } };
    if (req.path.endsWith("/messages:send")) {
      const token = (req.json as { message: { token: string } }).message.token;
      if (token.startsWith(GONE)) {
        return { status: 404, json: { error: { status: "NOT_FOUND", details: [{ errorCode: "UNREGISTERED" }] } } };
      }
      return { status: 200, json: { name: "projects/p/messages/1" } };
    }
    if (req.path.startsWith("/push/"))
      return req.path.includes(GONE) ? { status: 410, text: "" } : { status: 201, text: "" };
    return { status: 404, json: {} };
  });
  const key = generateKeyPairSync("rsa", { modulusLength: 2048 })
    .privateKey.export({ type: "pkcs8", format: "pem" })
    .toString();
  return {
    server,
    env: {
      MOBILE_PUSH_PROVIDER: "fcm",
      FCM_SERVICE_ACCOUNT_JSON: JSON.stringify({ project_id: "p", client_email: "push@p.test", private_key: key }),
      FCM_API_BASE_URL: server.url,
      FCM_TOKEN_URL: `${server.url}/token`,
      WEB_PUSH_ALLOW_HTTP: "true",
      DJ_FANS_NOTIFICATION_INTERVAL_SECONDS: "600",
    },
    fcmTokens: () =>
      server.requests
        .filter((r) => r.path.endsWith("/messages:send"))
        .map((r) => (r.json as { message: { token: string } }).message.token),
    webPushPaths: () => server.requests.filter((r) => r.path.startsWith("/push/")).map((r) => r.path),
    close: () => server.close(),
  };
}

/** A browser subscription's keys (as PushSubscription.toJSON() gives them). */
export function browserKeys(): { p256dh: string; auth: string } {
  const ecdh = createECDH("prime256v1");
  return { p256dh: ecdh.generateKeys().toString("base64url"), auth: randomBytes(16).toString("base64url") };
}
