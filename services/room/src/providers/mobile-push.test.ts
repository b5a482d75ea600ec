// The FCM HTTP v1 client against a recording fake: the service-account JWT grant, the messages:send shape, the
// cached access token, the one retry on 401, and UNREGISTERED tokens reported as such.
import { generateKeyPairSync } from "node:crypto";
import { decodeJwt, decodeProtectedHeader, importSPKI, jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pino from "pino";
import { startFakeServer, type FakeServer } from "@tt/kit/testing";
import {
  createDevelopmentPushProvider,
  createFcmProvider,
  parseServiceAccount,
  type PushMessage,
} from "./mobile-push.ts";

const keys = generateKeyPairSync("rsa", { modulusLength: 2048 });
const privatePem = keys.privateKey.export({ type: "pkcs8", format: "pem" }).toString();
const publicPem = keys.publicKey.export({ type: "spki", format: "pem" }).toString();

let fake: FakeServer;
let tokensIssued = 0;
beforeAll(async () => {
  fake = await startFakeServer((req) => {
    if (req.path === "/token")
      return { status: 200, json: { access_token: `at-${++tokensIssued}`, expires_in: 3600, token_type: "Bearer" } };
    if (req.path.endsWith("/messages:send")) {
      const body = req.json as { message: { token: string } };
      if (body.message.token === "gone") {
        return {
          status: 404,
          json: {
            error: {
              code: 404,
              status: "NOT_FOUND",
              details: [{ "@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", errorCode: "UNREGISTERED" }],
            },
          },
        };
      }
      if (body.message.token === "expired-access" && req.headers.authorization === "Bearer at-1")
        return { status: 401, json: { error: { status: "UNAUTHENTICATED" } } };
      return { status: 200, json: { name: "projects/tt-test/messages/1" } };
    }
    return { status: 404, json: {} };
  });
});
afterAll(() => fake?.close());

const account = () =>
  parseServiceAccount(
    JSON.stringify({
      type: "service_account",
      project_id: "tt-test",
      private_key_id: "kid-1",
      private_key: privatePem,
      client_email: "push@tt-test.iam.gserviceaccount.com",
    }),
  );
const message = (over: Partial<PushMessage> = {}): PushMessage => ({
  token: "device-1",
  platform: "android",
  title: "Hello",
  body: "World",
  data: { roomId: "r1" },
  silent: false,
  ...over,
});

describe("FCM HTTP v1 client", () => {
  it("signs the service-account grant, sends messages:send with the bearer token, and reuses the token", async () => {
    const fcm = createFcmProvider({
      account: account(),
      apiBaseUrl: fake.url,
      tokenUrl: `${fake.url}/token`,
      timeoutMs: 5000,
    });
    expect(await fcm.send(message())).toEqual({ ok: true });
    expect(await fcm.send(message({ token: "device-2", silent: true, platform: "ios" }))).toEqual({ ok: true });

    const grants = fake.requests.filter((r) => r.path === "/token");
    expect(grants).toHaveLength(1);
    expect(grants[0]!.form.grant_type).toBe("urn:ietf:params:oauth:grant-type:jwt-bearer");
    const assertion = grants[0]!.form.assertion!;
    expect(decodeProtectedHeader(assertion)).toMatchObject({ alg: "RS256", kid: "kid-1" });
    await jwtVerify(assertion, await importSPKI(publicPem, "RS256"), { audience: `${fake.url}/token` });
    expect(decodeJwt(assertion)).toMatchObject({
      iss: "push@tt-test.iam.gserviceaccount.com",
      scope: "https://www.googleapis.com/auth/firebase.messaging",
    });

    const sends = fake.requests.filter((r) => r.path === "/v1/projects/tt-test/messages:send");
    expect(sends).toHaveLength(2);
    expect(sends.every((r) => r.headers.authorization === "Bearer at-1")).toBe(true);
    expect(sends[0]!.json).toEqual({
      message: {
        token: "device-1",
        notification: { title: "Hello", body: "World" },
        data: { roomId: "r1" },
        android: { priority: "high" },
        apns: { headers: { "apns-push-type": "alert", "apns-priority": "10" } },
      },
    });
    expect(sends[1]!.json).toMatchObject({
      message: {
        token: "device-2",
        apns: { headers: { "apns-push-type": "background" }, payload: { aps: { "content-available": 1 } } },
      },
    });
    expect((sends[1]!.json as { message: object }).message).not.toHaveProperty("notification");
  });

  it("reports an unregistered token, and gets a new access token once on 401", async () => {
    tokensIssued = 0;
    const fcm = createFcmProvider({
      account: account(),
      apiBaseUrl: fake.url,
      tokenUrl: `${fake.url}/token`,
      timeoutMs: 5000,
    });
    expect(await fcm.send(message({ token: "gone" }))).toEqual({
      ok: false,
      unregistered: true,
      reason: "UNREGISTERED",
    });
    expect(await fcm.send(message({ token: "expired-access" }))).toEqual({ ok: true });
    expect(tokensIssued).toBe(2);
  });

  it("refuses a service account without its fields", () => {
    expect(() => parseServiceAccount("{}")).toThrow("FCM_SERVICE_ACCOUNT_JSON has no project_id");
    expect(() => parseServiceAccount("nope")).toThrow("FCM_SERVICE_ACCOUNT_JSON is not JSON");
  });

  it("the development provider records what it would send", async () => {
    const dev = createDevelopmentPushProvider(pino({ level: "silent" }), 2);
    await dev.send(message({ token: "a" }));
    await dev.send(message({ token: "b" }));
    await dev.send(message({ token: "c" }));
    expect(dev.sent.map((m) => m.token)).toEqual(["b", "c"]);
  });
});
