// The bus of the all-in-one process: NATS_URL when given; else a real `nats-server` from the PATH started
// as a child process with JetStream; else the in-process adapter (same contract, this process only).
import { spawn } from "node:child_process";
import { mkdir } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { createMemoryBus, createNatsBus } from "@tt/kit";
import type { Bus } from "@tt/kit";
import type { Logger } from "pino";
import { stopOrphan } from "./orphans.ts";

export interface BusHandle {
  bus: Bus;
  /** Where it runs, for the start-up line: a URL, or "in-process". */
  description: string;
  close(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Starts `nats-server -js`; resolves with its URL once it accepts clients, or null when it is not installed. */
async function startNatsServer(
  storeDir: string,
  logger: Logger,
): Promise<{ url: string; stop(): Promise<void> } | null> {
  await mkdir(storeDir, { recursive: true });
  const pidFile = path.join(storeDir, "nats-server.pid");
  await stopOrphan(pidFile, "nats-server", logger, "SIGTERM");
  const port = await freePort();
  const args = ["-a", "127.0.0.1", "-p", String(port), "-js", "-sd", storeDir, "-P", pidFile];
  const child = spawn("nats-server", args, {
    stdio: ["ignore", "ignore", "pipe"],
  });
  const started = await new Promise<boolean>((resolve) => {
    child.once("error", () => resolve(false));
    child.once("exit", () => resolve(false));
    let seen = "";
    child.stderr.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes("Server is ready")) resolve(true);
    });
  });
  if (!started) return null;
  child.stderr.resume();
  logger.debug({ port }, "nats-server started");
  return {
    url: `nats://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

export async function openBus(opts: { natsUrl?: string; storeDir: string; logger: Logger }): Promise<BusHandle> {
  const { natsUrl, storeDir, logger } = opts;
  if (natsUrl) {
    const bus = await createNatsBus({ url: natsUrl, name: "all-in-one", logger });
    return { bus, description: natsUrl, close: () => bus.close() };
  }
  const server = await startNatsServer(storeDir, logger);
  if (server) {
    const bus = await createNatsBus({ url: server.url, name: "all-in-one", logger });
    return {
      bus,
      description: `${server.url} (nats-server started by this process)`,
      close: async () => {
        await bus.close();
        await server.stop();
      },
    };
  }
  logger.warn("no NATS_URL and no nats-server on the PATH: using the in-process bus (this process only)");
  const bus = createMemoryBus();
  return { bus, description: "in-process", close: () => bus.close() };
}
