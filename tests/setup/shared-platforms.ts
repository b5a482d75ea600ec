// What the test run shares between its e2e files, owned by the Vitest main process (global-setup.ts starts this
// once per project) and started on first need only, so a run of unit suites alone starts none of it:
//   - one platform per mode (all-in-one, in this process; distributed, one process per chart Deployment) for the
//     REST suites, and one all-in-one that also serves the web apps for the browser journeys (`web`), each on its
//     own fresh database and the run's NATS, stopped when the run ends;
//   - the web apps, built once (buildFrontendsIfStale) by the first browser suite that asks;
//   - a headless Chromium (a Playwright browser server) that browser suites connect to: Chromium's headless shell, or
//     the full browser for the journeys that need what only it has (web push).
// Test files reach it through a loopback HTTP endpoint whose URL is provided as `sharedBroker`; they use the
// client side in tests/e2e/support/ (sharedPlatform, webSetup), never this module directly.
import { generateKeyPairSync } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  createTestDatabase,
  removeDeploymentFromNats,
  TEST_DATABASE_POOL_MAX,
  uniqueDeploymentName,
} from "@tt/kit/testing";

export type SharedPlatformKind = "all-in-one" | "distributed" | "web";

/** The run's browsers: Chromium's headless shell for the journeys, the full browser for web push (chromium.ts). */
export type BrowserKind = "shell" | "full";

/** The first admin of every shared platform (tests/e2e/support/platform.ts ADMIN). */
export const SHARED_ADMIN = { email: "admin@example.test", password: "admin-password-1" };

/**
 * Settings of the shared platforms beyond the defaults. Every file of the run signs in from 127.0.0.1 (the admin
 * alone once per file or more), so the per-address sign-in and code throttles are raised; a suite that tests a
 * throttle starts a platform of its own with the limit it needs.
 */
export const SHARED_ENV: Record<string, string> = {
  LOG_LEVEL: "warn",
  // Each service's connection pool: several platforms share the run's PostgreSQL (TEST_DATABASE_POOL_MAX).
  DATABASE_POOL_MAX: TEST_DATABASE_POOL_MAX,
  ADMIN_EMAIL: SHARED_ADMIN.email,
  ADMIN_PASSWORD: SHARED_ADMIN.password,
  LOGIN_ATTEMPTS_PER_ACCOUNT_AND_IP: "100000",
  LOGIN_ATTEMPTS_PER_IP: "100000",
  MOBILE_CODES_PER_IP_PER_HOUR: "100000",
  PASSWORD_RESETS_PER_CLIENT_PER_HOUR: "100000",
  PASSWORD_RESET_ATTEMPTS_PER_CLIENT_PER_HOUR: "100000",
};

/** What a test file gets of a shared platform. */
export interface SharedPlatformInfo {
  url: string;
  /** The platform's JWT_PRIVATE_KEY, to craft tokens. */
  privatePem: string;
  /** The platform's DEPLOYMENT_NAME on the run's NATS (its own, issue 23). */
  deploymentName: string;
}

interface Running extends SharedPlatformInfo {
  close(): Promise<void>;
}

export interface Broker {
  url: string;
  close(): Promise<void>;
}

/**
 * Runs `start` once; every caller gets its result. A failed start is forgotten once its callers have it, so the
 * next file tries again (a transient refusal, such as PostgreSQL's "too many clients", must not fail the run).
 */
function once<T>(start: () => Promise<T>): () => Promise<T> {
  let started: Promise<T> | undefined;
  return () =>
    (started ??= start().catch((err: unknown) => {
      started = undefined;
      throw err;
    }));
}

export async function startBroker(opts: { databaseUrl: string; natsUrl: string }): Promise<Broker> {
  const closers: Array<() => Promise<void>> = [];

  const startPlatform = async (kind: SharedPlatformKind): Promise<Running> => {
    const privatePem = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const db = await createTestDatabase(opts.databaseUrl);
    const mediaDir = await mkdtemp(path.join(tmpdir(), `tt-shared-${kind}-media-`));
    const deploymentName = uniqueDeploymentName(`shared-${kind}`);
    const env = { ...SHARED_ENV, JWT_PRIVATE_KEY: privatePem, MEDIA_DIR: mediaDir, DEPLOYMENT_NAME: deploymentName };
    let running: { url: string; close(): Promise<void> };
    try {
      if (kind === "distributed") {
        const { startDistributed } = await import("@tt/platform/distributed");
        // The children's output would interleave with the reporter's; their failures surface through startDistributed.
        running = await startDistributed({
          databaseUrl: db.url,
          natsUrl: opts.natsUrl,
          env,
          port: 0,
          forwardOutput: false,
          // Ten processes one after the other on a loaded two-core machine.
          readyTimeoutMs: 180_000,
        });
      } else {
        const { startAllInOne } = await import("@tt/platform");
        const { createFrontendHandler } = await import("@tt/web-server");
        // Serves whatever the web apps' dist folders hold when asked: browser suites build them first (/frontends).
        const frontends = kind === "web" ? createFrontendHandler() : undefined;
        running = await startAllInOne({
          databaseUrl: db.url,
          natsUrl: opts.natsUrl,
          env,
          port: 0,
          host: "127.0.0.1",
          staticHandler: frontends && ((req, res) => frontends(req, res)),
        });
      }
    } catch (err) {
      await db.drop();
      await rm(mediaDir, { recursive: true, force: true });
      await removeDeploymentFromNats(opts.natsUrl, deploymentName);
      throw err;
    }
    const close = async () => {
      await running.close();
      await db.drop();
      await rm(mediaDir, { recursive: true, force: true });
      await removeDeploymentFromNats(opts.natsUrl, deploymentName);
    };
    closers.push(close);
    return { url: running.url, privatePem, deploymentName, close };
  };

  const platforms: Record<SharedPlatformKind, () => Promise<Running>> = {
    "all-in-one": once(() => startPlatform("all-in-one")),
    distributed: once(() => startPlatform("distributed")),
    web: once(() => startPlatform("web")),
  };

  const frontends = once(async () => {
    const { buildFrontendsIfStale } = await import("@tt/web-server");
    return buildFrontendsIfStale();
  });

  // The journeys' pages ask for reduced motion (support/web.ts, sharedBrowser).
  const browser = (kind: BrowserKind) =>
    once(async () => {
      const { chromium: browserType } = await import("playwright-core");
      const { chromiumLaunchOptions, headlessShellLaunchOptions } = await import("@tt/web-server");
      // Where the headless shell is not installed (a machine set up before scripts/ensure-test-deps.sh asked for
      // it), the journeys run in the full browser, as they did before.
      const shell = existsSync(headlessShellLaunchOptions.executablePath);
      const server = await browserType.launchServer(
        kind === "shell" && shell ? headlessShellLaunchOptions : chromiumLaunchOptions,
      );
      closers.push(() => server.close());
      return { wsEndpoint: server.wsEndpoint() };
    });
  const browsers: Record<BrowserKind, () => Promise<{ wsEndpoint: string }>> = {
    shell: browser("shell"),
    full: browser("full"),
  };

  const info = (kind: SharedPlatformKind) => async (): Promise<SharedPlatformInfo> => {
    const { url, privatePem, deploymentName } = await platforms[kind]();
    return { url, privatePem, deploymentName };
  };
  const routes: Record<string, () => Promise<unknown>> = {
    "/platform/all-in-one": info("all-in-one"),
    "/platform/distributed": info("distributed"),
    "/platform/web": info("web"),
    "/frontends": frontends,
    "/chromium/shell": browsers.shell,
    "/chromium/full": browsers.full,
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const route = routes[req.url ?? ""];
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.method !== "POST" || !route) return answer(404, { error: `no shared ${req.method} ${req.url}` });
    route().then(
      (body) => answer(200, body),
      (err: unknown) => answer(500, { error: err instanceof Error ? (err.stack ?? err.message) : String(err) }),
    );
  });
  // A start may take minutes (a first web build, ten processes on a loaded machine): no server-side time limit.
  server.requestTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      for (const close of closers.reverse()) {
        try {
          await close();
        } catch (err) {
          process.stderr.write(`closing a shared test resource failed: ${String((err as Error)?.stack ?? err)}\n`);
        }
      }
    },
  };
}
