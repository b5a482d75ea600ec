// `npm run start:distributed`: the platform as a cluster runs it, on one machine. Each backend Deployment
// of the Helm chart becomes a separate `node --import tsx <entry>` process with the environment the chart
// gives it (deploy/scripts/render-env.ts), on loopback ports; the gateway reaches the services over HTTP/2
// and every event goes through a real NATS. The end-to-end suite runs against this as well as all-in-one.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createLogger, freePort, installProcessGuards } from "@tt/kit";
import type { Logger } from "pino";
import { localiseEnvs, renderWorkloads, repoRoot, type ProcessEnv } from "../../../deploy/scripts/render-env.ts";
import { loadAllInOneConfig } from "./config.ts";
import { openDatabase } from "./embedded-postgres.ts";
import {
  PortInUseError,
  spawnNodeProcess,
  startNatsServer,
  waitUntilReady,
  type ChildHandle,
} from "./distributed-process.ts";

export interface DistributedOptions {
  /**
   * Read for DATABASE_URL, NATS_URL, PORT, LOG_LEVEL and EMBEDDED_POSTGRES_PORT, and passed to every process
   * over the chart's variables (ADMIN_EMAIL, JWT_PRIVATE_KEY, LOG_LEVEL, …). Default process.env.
   */
  env?: Record<string, string | undefined>;
  /** Overrides env DATABASE_URL; without either an embedded PostgreSQL is started. */
  databaseUrl?: string;
  /** Overrides env NATS_URL; without either a nats-server from the PATH is started (required: no in-process bus here). */
  natsUrl?: string;
  /** Gateway port; overrides env PORT (default 8080); 0 picks a free one. */
  port?: number;
  /** Processes per service (the chart runs two replicas); the gateway talks to the first. Default 1. */
  replicas?: number;
  /** Where the embedded PostgreSQL, nats-server and media files (`media/`) are kept. Default <repo>/.data */
  dataDir?: string;
  /** Longest wait for one process's /readyz. Default 60 s (tsx compiles on first start). */
  readyTimeoutMs?: number;
  /** Copy the children's stdout and stderr to this process's. Default true. */
  forwardOutput?: boolean;
  logger?: Logger;
}

export interface DistributedProcess {
  /** Workload name: `user`, …, `gateway`. */
  name: string;
  /** Replica index within the workload. */
  replica: number;
  url: string;
  /** Its own metrics server (loopback, a free port each: several processes share the machine). */
  metricsUrl: string;
  pid: number;
}

export interface Distributed {
  /** The gateway. */
  url: string;
  processes: DistributedProcess[];
  /** Stops the gateway, then the services (each drains on SIGTERM, killed after the timeout), then NATS and PostgreSQL. */
  close(): Promise<void>;
}

// Children must never outlive this process, whatever ends it: close() drains them, this is the last resort
// for a normal exit without close(); a hard kill is covered by each child's watchdog (distributed-watchdog.ts).
const running = new Set<ChildHandle>();
process.on("exit", () => {
  for (const child of running) child.kill();
});

/** How often the processes are started on fresh ports when a picked port was taken meanwhile. */
const PORT_ATTEMPTS = 3;

export async function startDistributed(opts: DistributedOptions = {}): Promise<Distributed> {
  const env = { ...(opts.env ?? process.env) };
  const config = loadAllInOneConfig(env);
  const logger = opts.logger ?? createLogger({ service: "distributed", level: config.LOG_LEVEL });
  const dataDir = opts.dataDir ?? path.join(repoRoot, ".data");
  const readyTimeoutMs = opts.readyTimeoutMs ?? 60_000;
  const replicas = Math.max(1, opts.replicas ?? 1);
  // Long enough for a child's own drain (SHUTDOWN_TIMEOUT_MS) before it is killed.
  const graceMs = config.SHUTDOWN_TIMEOUT_MS + 2000;
  const closers: Array<() => Promise<void>> = [];
  const processes: DistributedProcess[] = [];
  const close = async () => {
    for (const closer of closers.splice(0).reverse()) {
      try {
        await closer();
      } catch (err) {
        logger.error({ err }, "distributed mode: a shutdown step failed");
      }
    }
  };

  const startProcesses = async (workloads: ProcessEnv[], gatewayPort: number) => {
    const ports: Record<string, number> = {};
    for (const { name } of workloads) {
      ports[name] = name === "gateway" && gatewayPort !== 0 ? gatewayPort : await freePort();
    }
    const processEnvs = localiseEnvs(workloads, ports, path.join(dataDir, "media"));

    for (const processEnv of processEnvs) {
      const copies = processEnv.name === "gateway" ? 1 : replicas;
      for (let replica = 0; replica < copies; replica++) {
        const port = replica === 0 ? ports[processEnv.name]! : await freePort();
        const metricsPort = await freePort();
        const childEnv = childEnvironment(processEnv.env, env, port, metricsPort);
        const handle = spawnNodeProcess({
          name: replica === 0 ? processEnv.name : `${processEnv.name}#${replica}`,
          entry: processEnv.entry,
          env: childEnv,
          cwd: repoRoot,
          forwardOutput: opts.forwardOutput ?? true,
        });
        running.add(handle);
        closers.push(async () => {
          await handle.stop(graceMs);
          running.delete(handle);
        });
        const url = `http://127.0.0.1:${port}`;
        // One at a time: the first process of a service applies its migrations before the next one starts,
        // and the gateway starts once its backends answer.
        await waitUntilReady(handle, url, readyTimeoutMs);
        const metricsUrl = `http://127.0.0.1:${metricsPort}`;
        processes.push({ name: processEnv.name, replica, url, metricsUrl, pid: handle.pid });
        logger.debug({ name: processEnv.name, replica, url, pid: handle.pid }, "process ready");
      }
    }
  };

  try {
    // embedded-postgres.ts imports the package (and its exit hooks) only when it starts one.
    const database = await openDatabase({
      url: opts.databaseUrl ?? config.DATABASE_URL,
      dataDir,
      port: config.EMBEDDED_POSTGRES_PORT,
      logger,
    });
    closers.push(database.stop);
    const databaseUrl = database.url;

    let natsUrl = opts.natsUrl ?? config.NATS_URL;
    if (!natsUrl) {
      const nats = await startNatsServer(path.join(dataDir, "nats"), logger);
      if (!nats) {
        throw new Error(
          "distributed mode needs a real NATS: set NATS_URL or put nats-server on the PATH (apt-get install nats-server)",
        );
      }
      running.add(nats.handle);
      closers.push(async () => {
        await nats.handle.stop(graceMs);
        running.delete(nats.handle);
      });
      natsUrl = nats.url;
    }

    const workDir = await mkdtemp(path.join(tmpdir(), "tt-distributed-"));
    closers.push(() => rm(workDir, { recursive: true, force: true }));

    // The chart names the workloads; each gets a loopback port (the gateway the one asked for).
    // No Ingress stands in front of the gateway here: callers reach it directly, so their x-forwarded-for is
    // not trusted (TRUST_PROXY decides, as for the all-in-one).
    const workloads = renderWorkloads({
      databaseUrl,
      natsUrl,
      dir: workDir,
      helmArgs: ["--set", `gateway.trustProxy=${config.TRUST_PROXY}`],
    });
    const gatewayPort = opts.port ?? config.PORT;
    // A port picked as free can be taken by another process before the child binds it (parallel test
    // platforms do that); the child says so, and the processes start again on fresh ports.
    for (let attempt = 1; ; attempt++) {
      const started = closers.length;
      try {
        await startProcesses(workloads, gatewayPort);
        break;
      } catch (err) {
        if (!(err instanceof PortInUseError) || err.port === gatewayPort || attempt === PORT_ATTEMPTS) throw err;
        logger.warn({ err: err.message, attempt }, "starting the processes again on fresh ports");
        for (const closer of closers.splice(started).reverse()) await closer();
        processes.length = 0;
      }
    }

    const gateway = processes.find((p) => p.name === "gateway");
    if (!gateway) throw new Error("the chart rendered no gateway Deployment");
    logger.info({ url: gateway.url, processes: processes.length }, "distributed platform ready");
    return { url: gateway.url, processes, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/** Variables the supervisor decides for each process; the caller's environment cannot override them. */
const OWNED =
  /^(PORT|HOST|METRICS_PORT|METRICS_HOST|SERVICE|DATABASE_URL|NATS_URL|REMOTES_CONFIG|[A-Z0-9_]+_SERVICE_URL)$/;

/**
 * What a child sees: this process's environment (PATH, HOME, …), the chart's values over it, then the
 * caller's variables (LOG_LEVEL=debug, ADMIN_EMAIL, …) over those, except the ones the supervisor owns.
 */
function childEnvironment(
  chart: Record<string, string>,
  overrides: Record<string, string | undefined>,
  port: number,
  metricsPort: number,
): Record<string, string> {
  const env: Record<string, string> = {};
  const put = (values: Record<string, string | undefined>, owned: boolean) => {
    for (const [key, value] of Object.entries(values)) {
      if (value !== undefined && (owned || !OWNED.test(key))) env[key] = value;
    }
  };
  put(process.env, false);
  put(chart, true);
  put(overrides, false);
  env.PORT = String(port);
  // The chart's one metrics port would collide between processes on one machine; scraping stays local.
  env.METRICS_PORT = String(metricsPort);
  env.METRICS_HOST = "127.0.0.1";
  return env;
}

async function main(): Promise<void> {
  const config = loadAllInOneConfig(process.env);
  const logger = createLogger({ service: "distributed", level: config.LOG_LEVEL });
  // The supervisor must outlive a bug of its own, or its children would be stopped with it (issue 9 defect 1).
  installProcessGuards({ logger });
  const stop = new AbortController();
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => stop.abort());
  const platform = await startDistributed({ logger });
  process.stdout.write(`\nturntable (distributed) is listening on ${platform.url}\n`);
  for (const p of platform.processes) {
    process.stdout.write(`  ${p.name.padEnd(10)} ${p.url}  metrics ${p.metricsUrl}  pid ${p.pid}\n`);
  }
  process.stdout.write("\n");
  if (!stop.signal.aborted) await new Promise((resolve) => stop.signal.addEventListener("abort", resolve));
  logger.info("shutting down");
  await platform.close();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  });
}
