// A small distributed topology for the ledger check and the ledger benchmark: the user service (token keys)
// and the merch service each as its own process (as the distributed runner starts them), and a gateway in this
// process routing to both over HTTP/2. The merch process listens on a fixed port, so it can be killed (SIGKILL)
// and started again where the gateway expects it.
import { generateKeyPairSync } from "node:crypto";
import { fileURLToPath } from "node:url";
import { createBackendTransport, backendSession, createLogger, createServer, freePort } from "@tt/kit";
import { createTestDatabase, type TestDatabase } from "@tt/kit/testing";
import { createGateway } from "@tt/gateway";
import { serviceCatalog } from "@tt/gateway/catalog";
import { platformTokenSigner, restCall } from "@tt/kit/bench";
import { spawnNodeProcess, waitUntilReady, type ChildHandle } from "@tt/platform/processes";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

export interface Topology {
  gatewayUrl: string;
  merchUrl: string;
  databaseUrl: string;
  /** A user token (role user unless given) for a new random user. */
  userToken(role?: string, sub?: string): Promise<string>;
  adminToken: string;
  /** The merch process's pid (it changes when the process is restarted). */
  merchPid(): number;
  /** SIGKILLs the merch process (no drain) and starts it again on the same port; resolves once it is ready. */
  killAndRestartMerch(): Promise<void>;
  /** Kills the merch process only (it stays down until restartMerch). */
  killMerch(): Promise<void>;
  restartMerch(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Signs user tokens as the user service would (its key `jwtKey`, its `kid` read from the gateway at `gatewayUrl`):
 * `sign(role, sub)` for a user of that role (a new random user unless `sub` is given).
 */
export async function tokenSigner(
  gatewayUrl: string,
  jwtKey: string,
): Promise<(role?: string, sub?: string) => Promise<string>> {
  const sign = await platformTokenSigner(restCall(gatewayUrl), jwtKey);
  return (role = "user", sub) => sign({ typ: "user", role, ...(sub === undefined ? {} : { sub }) });
}

/** A child's environment: NODE_OPTIONS of the children only (`CHILD_NODE_OPTIONS=--cpu-prof` profiles them). */
export function childNodeOptions(): Record<string, string> {
  return process.env.CHILD_NODE_OPTIONS ? { NODE_OPTIONS: process.env.CHILD_NODE_OPTIONS } : {};
}

export async function startTopology(opts: {
  databaseUrl: string;
  natsUrl: string;
  logLevel?: string;
  forwardOutput?: boolean;
}): Promise<Topology> {
  const db: TestDatabase = await createTestDatabase(opts.databaseUrl);
  const jwtKey = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  const serviceKey = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  const base = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "/tmp",
    DATABASE_URL: db.url,
    NATS_URL: opts.natsUrl,
    LOG_LEVEL: opts.logLevel ?? "warn",
    SERVICE_TOKEN_PRIVATE_KEY: serviceKey,
    HOST: "127.0.0.1",
    METRICS_PORT: "0",
    METRICS_HOST: "127.0.0.1",
    ...childNodeOptions(),
  };
  const closers: Array<() => Promise<void>> = [async () => db.drop()];
  const close = async () => {
    for (const c of closers.splice(0).reverse()) await c().catch(() => undefined);
  };
  try {
    const user = spawnNodeProcess({
      name: "user",
      entry: "services/user/src/main.ts",
      env: { ...base, PORT: "0", JWT_PRIVATE_KEY: jwtKey },
      cwd: repoRoot,
      forwardOutput: opts.forwardOutput ?? false,
    });
    closers.push(() => user.stop(5000));
    const userUrl = (await waitUntilReady(user, 90_000, { metrics: true })).url;

    const merchPort = await freePort();
    const merchEnv = { ...base, PORT: String(merchPort), USER_SERVICE_URL: userUrl, SHUTDOWN_TIMEOUT_MS: "2000" };
    let merch: ChildHandle | undefined;
    const startMerch = async () => {
      const handle = spawnNodeProcess({
        name: "merch",
        entry: "services/merch/src/main.ts",
        env: merchEnv,
        cwd: repoRoot,
        forwardOutput: opts.forwardOutput ?? false,
      });
      merch = handle;
      await waitUntilReady(handle, 90_000, { metrics: true });
    };
    await startMerch();
    closers.push(async () => merch?.stop(5000));
    const merchUrl = `http://127.0.0.1:${merchPort}`;

    const logger = createLogger({ service: "ledger-gateway", level: (opts.logLevel ?? "warn") as "warn" });
    const backends = (["user", "merch"] as const).map((name) => {
      const baseUrl = name === "user" ? userUrl : merchUrl;
      const session = backendSession(baseUrl);
      closers.push(async () => session.abort());
      return {
        services: [...serviceCatalog[name]],
        transport: createBackendTransport({ baseUrl, session, protocol: "connect" }),
        connect: { baseUrl },
      };
    });
    const gateway = createGateway({ backends, logger });
    const server = await createServer({
      handler: gateway.handler,
      port: 0,
      host: "127.0.0.1",
      logger,
      ready: async () => true,
    });
    closers.push(async () => {
      await server.close();
      gateway.close();
    });

    const userToken = await tokenSigner(server.url, jwtKey);
    const killMerch = async () => {
      const handle = merch!;
      handle.child.kill("SIGKILL");
      await handle.exited;
    };
    return {
      gatewayUrl: server.url,
      merchUrl,
      databaseUrl: db.url,
      userToken,
      adminToken: await userToken("admin"),
      merchPid: () => merch!.pid,
      killMerch,
      restartMerch: startMerch,
      async killAndRestartMerch() {
        await killMerch();
        await startMerch();
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
