// The platform as `npm start` runs it (every service and the gateway in one process, the gateway calling the
// services in process), started as a child on a test database of its own, for the ledger benchmark's
// all-in-one figure. No web build, no demo songs.
import { generateKeyPairSync } from "node:crypto";
import { fileURLToPath } from "node:url";
import { createTestDatabase } from "@tt/kit/testing";
import { spawnNodeProcess, waitUntilReady } from "@tt/platform/processes";
import { childNodeOptions, tokenSigner } from "./topology.ts";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

export interface AllInOneProcess {
  url: string;
  databaseUrl: string;
  pid: number;
  userToken(role?: string, sub?: string): Promise<string>;
  adminToken: string;
  close(): Promise<void>;
}

export async function startAllInOneProcess(opts: {
  databaseUrl: string;
  natsUrl: string;
  logLevel?: string;
}): Promise<AllInOneProcess> {
  const db = await createTestDatabase(opts.databaseUrl);
  const jwtKey = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  const child = spawnNodeProcess({
    name: "all-in-one",
    entry: "services/platform/src/main.ts",
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/tmp",
      DATABASE_URL: db.url,
      NATS_URL: opts.natsUrl,
      LOG_LEVEL: opts.logLevel ?? "warn",
      JWT_PRIVATE_KEY: jwtKey,
      HOST: "127.0.0.1",
      PORT: "0",
      METRICS_PORT: "0",
      SKIP_WEB_BUILD: "true",
      UPLOAD_DEMO_SONGS: "false",
      MERCH_DEMO_STOCK: "false",
      PAYMENT_DEMO_PRODUCTS: "false",
      USER_DEMO_VOUCHER: "false",
      ...childNodeOptions(),
    },
    cwd: repoRoot,
    forwardOutput: false,
  });
  const close = async () => {
    await child.stop(10_000);
    await db.drop();
  };
  try {
    const { url } = await waitUntilReady(child, 180_000, { metrics: true });
    const userToken = await tokenSigner(url, jwtKey);
    return { url, databaseUrl: db.url, pid: child.pid, userToken, adminToken: await userToken("admin"), close };
  } catch (err) {
    await close().catch(() => undefined);
    throw err;
  }
}
