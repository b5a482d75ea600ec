// Regression: a hard kill of `npm start` left PostgreSQL and nats-server running on the data folder, and the
// next start failed. The process is started as `npm start` starts it, killed with SIGKILL, and started again.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort, NODE_TYPESCRIPT_FLAGS } from "@tt/kit";
import { afterAll, describe, expect, it } from "vitest";
import { alive, pidIn } from "./orphans.ts";

const repoRoot = path.resolve(import.meta.dirname, "../../..");
const children: ChildProcess[] = [];

/** Starts the all-in-one entry; resolves with its URL once it prints that it listens. */
async function start(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [...NODE_TYPESCRIPT_FLAGS, "services/platform/src/main.ts"], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`exited with ${code} before listening:\n${output}`)));
  });
  return { child, url };
}

async function post(url: string, body: unknown) {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

describe("all-in-one after a hard kill", () => {
  it("stops the orphaned PostgreSQL and nats-server, starts again and keeps the accounts", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "tt-restart-"));
    // The embedded PostgreSQL runs as the `postgres` user when we are root: it must reach the folder.
    await chmod(dataDir, 0o755);
    const env = {
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      EMBEDDED_POSTGRES_PORT: String(await freePort()),
      SKIP_WEB_BUILD: "true",
      LOG_LEVEL: "warn",
    };
    try {
      const first = await start(env);
      const account = { email: "restart@example.test", password: "restart-pass-1" };
      expect((await post(`${first.url}/api/user-service/users/sign-up`, account)).status).toBe(200);

      const orphanPg = await pidIn(path.join(dataDir, "postgres/postmaster.pid"));
      expect(orphanPg).toBeDefined();
      // Without a nats-server on the PATH the in-process bus is used and there is no such orphan.
      const orphanNats = await pidIn(path.join(dataDir, "nats/nats-server.pid"));
      first.child.kill("SIGKILL");
      await once(first.child, "exit");
      expect(alive(orphanPg!)).toBe(true);

      const second = await start(env);
      expect(alive(orphanPg!)).toBe(false);
      if (orphanNats) expect(alive(orphanNats)).toBe(false);
      const login = await post(`${second.url}/api/user-service/auth/login`, account);
      expect(login.status).toBe(200);

      // SIGTERM: the platform's own shutdown stops everything it started, then the process ends by itself.
      const nats = await pidIn(path.join(dataDir, "nats/nats-server.pid"));
      second.child.kill("SIGTERM");
      await once(second.child, "exit");
      expect(second.child.exitCode).toBe(0);
      if (nats) expect(alive(nats)).toBe(false);
      const pg = await pidIn(path.join(dataDir, "postgres/postmaster.pid"));
      expect(pg === undefined || !alive(pg)).toBe(true);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
