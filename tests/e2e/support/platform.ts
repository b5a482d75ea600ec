// The platform under end-to-end test, with a REST client and a token factory, so every e2e suite drives it
// exactly as an outside client would. Two ways to get one:
//
//   platform = await sharedPlatform();        // in beforeAll; no close: the run's platform of this mode
//   platform = await startTestPlatform({ env }); afterAll(() => platform.close()); // a platform of the file's own
//
// sharedPlatform() is the default: one platform per mode per test run (tests/setup/shared-platforms.ts starts it
// on first need, on a fresh database and the real NATS, and stops it after the run), so a file costs its tests
// only. A file on it isolates itself by what it makes: its own users (signUp), rooms, names (add a random part to
// names and slugs that must be unique), and asserts nothing about rows it did not make (counts filtered to its
// own data, or at least-N). It must not change what other files rely on: the bootstrap admin's account and
// platform-wide settings. Start a platform of your own (startTestPlatform) only when the file needs other
// settings (env: fake providers, a throttle under test, a webhook secret) or restarts or breaks the platform.
import { generateKeyPairSync, randomUUID } from "node:crypto";
import { SignJWT, importPKCS8 } from "jose";
import { request } from "node:http";
import type { Transport } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { inject } from "vitest";
import {
  createTestDatabase,
  removeDeploymentFromNats,
  TEST_DATABASE_POOL_MAX,
  uniqueDeploymentName,
} from "@tt/kit/testing";
import { startAllInOne, type AllInOneOptions } from "@tt/platform";
import { startDistributed } from "@tt/platform/distributed";
import { SHARED_ADMIN, type SharedPlatformInfo, type SharedPlatformKind } from "../../setup/shared-platforms.ts";

export type Mode = "all-in-one" | "distributed";
export const MODES: Mode[] = ["all-in-one", "distributed"];

/**
 * The mode of a suite that names none: TT_E2E_MODE, set per Vitest project (vitest.config.ts runs the e2e
 * suites once in each mode), all-in-one when unset.
 */
export function defaultMode(): Mode {
  const mode = process.env.TT_E2E_MODE ?? "all-in-one";
  if (!MODES.includes(mode as Mode)) throw new Error(`TT_E2E_MODE must be one of ${MODES.join(", ")}, not ${mode}`);
  return mode as Mode;
}

/** The first admin every test platform is started with, the shared ones included. */
export const ADMIN = SHARED_ADMIN;

export interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

export interface CallOptions {
  token?: string;
  /** JSON body. */
  body?: unknown;
  /** A raw body sent as application/json (malformed-input tests). */
  raw?: string;
  /** multipart/form-data body. */
  form?: FormData;
  /** Extra request headers (Idempotency-Key, …). */
  headers?: Record<string, string>;
}

export interface TestPlatform {
  url: string;
  /**
   * Its DEPLOYMENT_NAME: its subjects, streams and buckets on the run's NATS carry it (issue 23), so a test that
   * reaches into NATS opens a bus with it (`createNatsBus({ deployment })`) and uses the services' own names.
   */
  deploymentName: string;
  /** The platform's own signing key (given to it as JWT_PRIVATE_KEY), to craft tokens. */
  privatePem: string;
  call(method: string, path: string, opts?: CallOptions): Promise<Answer>;
  /** Signs up a new account; fails the test unless it answers 200. */
  signUp(email?: string, password?: string): Promise<{ user: { uuid: string; email: string }; token: string }>;
  login(email: string, password: string): Promise<string>;
  /** A token of the bootstrap admin. */
  adminToken(): Promise<string>;
  /** Any token the platform would have signed, with these claims over valid defaults (typ user, role user). */
  craft(claims?: Record<string, unknown>, opts?: { key?: string; kid?: string }): Promise<string>;
  /** A service-to-service token, as another service of the platform would send. */
  serviceToken(name?: string): Promise<string>;
  close(): Promise<void>;
}

/** `/api/user-service` + path. */
export const u = (path: string) => `/api/user-service${path}`;

/** A Connect transport to `baseUrl` (HTTP/1.1, as a browser's fetch) that calls as the holder of `token`. */
export function bearerTransport(baseUrl: string, token: string): Transport {
  return createConnectTransport({
    baseUrl,
    httpVersion: "1.1",
    interceptors: [
      (next) => (req) => {
        req.header.set("authorization", `Bearer ${token}`);
        return next(req);
      },
    ],
  });
}

export async function startTestPlatform(
  opts: {
    mode?: Mode;
    env?: Record<string, string>;
    /** All-in-one only: what the gateway serves besides the API (the built web apps, see support/web.ts). */
    staticHandler?: AllInOneOptions["staticHandler"];
    /** A NATS of the test's own (one it stops and starts); default the run's. */
    natsUrl?: string;
  } = {},
): Promise<TestPlatform> {
  const privatePem = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  const db = await createTestDatabase(inject("databaseUrl"));
  const natsUrl = opts.natsUrl ?? inject("natsUrl");
  // Its own name on the run's NATS, never another platform's (issue 23).
  const deploymentName = opts.env?.DEPLOYMENT_NAME ?? uniqueDeploymentName("e2e");
  const startOpts = {
    databaseUrl: db.url,
    natsUrl,
    env: {
      LOG_LEVEL: "warn",
      DATABASE_POOL_MAX: TEST_DATABASE_POOL_MAX,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      JWT_PRIVATE_KEY: privatePem,
      ...opts.env,
      DEPLOYMENT_NAME: deploymentName,
    },
  };
  let running: { url: string; close(): Promise<void> };
  try {
    running =
      (opts.mode ?? defaultMode()) === "distributed"
        ? // The children's output would interleave with the reporter's; their failures surface through startDistributed.
          await startDistributed({ ...startOpts, port: 0, forwardOutput: false })
        : await startAllInOne({ ...startOpts, port: 0, host: "127.0.0.1", staticHandler: opts.staticHandler });
  } catch (err) {
    await db.drop();
    await removeDeploymentFromNats(natsUrl, deploymentName);
    throw err;
  }

  return clientOf({ ...running, deploymentName }, privatePem, async () => {
    await running.close();
    await db.drop();
    await removeDeploymentFromNats(natsUrl, deploymentName);
  });
}

/**
 * The test run's platform of `mode` (default: the project's, see defaultMode), started on first need and shared
 * by every file of the run that asks for it; its `close()` does nothing (the run stops it). See the top of
 * this file for what a file on it must keep to.
 */
export function sharedPlatform(mode: Mode = defaultMode()): Promise<TestPlatform> {
  return sharedPlatformOf(mode);
}

/** A shared platform of the run: a mode's, or `web`, the browser journeys' (see support/web.ts). */
export async function sharedPlatformOf(kind: SharedPlatformKind): Promise<TestPlatform> {
  const { url, privatePem, deploymentName } = await askShared<SharedPlatformInfo>(`/platform/${kind}`);
  return clientOf({ url, deploymentName }, privatePem, async () => undefined);
}

/**
 * Asks the test run's broker (tests/setup/shared-platforms.ts) for a shared resource: `/platform/<mode>`,
 * `/frontends` (the web apps, built once), `/chromium` (the shared browser's endpoint). Without a time limit of
 * its own (the first caller waits for the start); the hook's timeout bounds it.
 */
export function askShared<T>(what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const req = request(`${inject("sharedBroker")}${what}`, { method: "POST" }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => {
        const body = JSON.parse(text) as T & { error?: string };
        if (res.statusCode === 200) resolve(body);
        else reject(new Error(`the shared ${what} could not be started: ${body.error ?? text}`));
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/** The REST client and token factory of the platform at `running.url`. */
async function clientOf(
  running: { url: string; deploymentName: string },
  privatePem: string,
  close: () => Promise<void>,
): Promise<TestPlatform> {
  const call = async (method: string, path: string, o: CallOptions = {}): Promise<Answer> => {
    const headers: Record<string, string> = { ...o.headers };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    if (o.body !== undefined || o.raw !== undefined) headers["content-type"] = "application/json";
    const res = await fetch(running.url + path, {
      method,
      headers,
      body: o.form ?? o.raw ?? (o.body === undefined ? undefined : JSON.stringify(o.body)),
    });
    const text = await res.text();
    let body: Record<string, unknown> = {};
    if (text) {
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        body = { text };
      }
    }
    return { status: res.status, body, headers: res.headers };
  };

  const kid = (await call("GET", u("/auth/pub-key"))).body.kid as string;

  const craft: TestPlatform["craft"] = async (claims = {}, o = {}) => {
    const key = await importPKCS8(o.key ?? privatePem, "EdDSA");
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ typ: "user", role: "user", sid: randomUUID(), ...claims })
      .setProtectedHeader({ alg: "EdDSA", kid: o.kid ?? kid, typ: "JWT" })
      .setIssuer((claims.iss as string) ?? "turntable")
      .setAudience((claims.aud as string) ?? "turntable")
      .setSubject((claims.sub as string) ?? randomUUID())
      .setIssuedAt((claims.iat as number) ?? now)
      .setExpirationTime((claims.exp as number) ?? now + 600)
      .sign(key);
  };

  const login = async (email: string, password: string) => {
    const res = await call("POST", u("/auth/login"), { body: { email, password } });
    if (res.status !== 200) throw new Error(`login of ${email} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return (res.body.accessToken as { token: string }).token;
  };

  return {
    url: running.url,
    deploymentName: running.deploymentName,
    privatePem,
    call,
    async signUp(email = `${randomUUID()}@example.test`, password = "correct-horse-1") {
      const res = await call("POST", u("/users/sign-up"), { body: { email, password } });
      if (res.status !== 200)
        throw new Error(`sign-up of ${email} answered ${res.status}: ${JSON.stringify(res.body)}`);
      const body = res.body as { user: { uuid: string; email: string }; accessToken: { token: string } };
      return { user: body.user, token: body.accessToken.token };
    },
    login,
    adminToken: () => login(ADMIN.email, ADMIN.password),
    craft,
    serviceToken: (name = "test-service") => craft({ typ: "service", role: "service", sub: name }),
    close,
  };
}
