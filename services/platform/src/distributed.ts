// `npm run start:distributed`: the platform as a cluster runs it, on one machine. Each backend Deployment
// of the Helm chart becomes a separate `node <entry>` process with the environment the chart
// gives it (deploy/scripts/render-env.ts), on loopback ports; the gateway reaches the services over HTTP/2
// and every event goes through a real NATS. The end-to-end suite runs against this as well as all-in-one.
// Every service's port is reserved before any process starts (local-ports.ts: a free loopback port outside the
// system's ephemeral range, held by this process until its service is spawned), so every service is given every
// other's URL, as the chart gives them; the services then start one after the other in the catalogue's order and
// the gateway last. Extra replicas, workers and metrics servers bind port 0 and report what they got
// (distributed-watchdog.ts): nobody calls them by a URL given in advance.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createLogger, installProcessGuards } from "@tt/kit";
import { loadResidentDjConfig } from "@tt/resident-dj";
import { loadContentSecurityOptions } from "@tt/web-server";
import type { Logger } from "pino";
import { localiseEnv, renderWorkloads, repoRoot, type ProcessEnv } from "../../../deploy/scripts/render-env.ts";
import { serviceNames, serviceWorkers } from "./catalogue.ts";
import { loadAllInOneConfig } from "./config.ts";
import { openDatabase } from "./embedded-postgres.ts";
import { spawnNodeProcess, startNatsServer, waitUntilReady, type ChildHandle } from "./distributed-process.ts";
import { reserveLocalPorts, type ReservedPort } from "./local-ports.ts";

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
  /** Gateway port; overrides env PORT (default 8080); 0 lets the gateway bind a free one (see `url`). */
  port?: number;
  /** Processes per service (the chart runs two replicas); the gateway talks to the first. Default 1. */
  replicas?: number;
  /** Where the embedded PostgreSQL, nats-server and media files (`media/`) are kept. Default <repo>/.data */
  dataDir?: string;
  /** Longest wait for one process's /readyz. Default 60 s (a cold start loads every module). */
  readyTimeoutMs?: number;
  /** Copy the children's stdout and stderr to this process's. Default true. */
  forwardOutput?: boolean;
  logger?: Logger;
}

export interface DistributedProcess {
  /** Workload name: `user`, …, a service's worker (`upload-worker`), `gateway`, `resident-dj` (RESIDENT_DJ=true). */
  name: string;
  /** Replica index within the workload. */
  replica: number;
  url: string;
  /** Its own metrics server (loopback, a free port each, as the child reported it: several processes share the machine). */
  metricsUrl: string;
  pid: number;
}

export interface Distributed {
  /** The gateway. */
  url: string;
  processes: DistributedProcess[];
  /** Stops the gateway, then the services (each drains on SIGTERM, killed after the timeout), then NATS and PostgreSQL. */
  close(): Promise<void>;
  /**
   * Starts a process of `name` again (as the cluster would replace a pod), with the environment it was first
   * started with, once the previous one is gone (stopped, or killed by the caller); resolves when it is ready.
   */
  restart(name: string, replica?: number): Promise<DistributedProcess>;
}

// Children must never outlive this process, whatever ends it: close() drains them, this is the last resort
// for a normal exit without close(); a hard kill is covered by each child's watchdog (distributed-watchdog.ts).
const running = new Set<ChildHandle>();
process.on("exit", () => {
  for (const child of running) child.kill();
});

export async function startDistributed(opts: DistributedOptions = {}): Promise<Distributed> {
  const env = { ...(opts.env ?? process.env) };
  const config = loadAllInOneConfig(env);
  // Every process runs under the one deployment name (the all-in-one's default when unset), over the chart's
  // release name (issue 23).
  env.DEPLOYMENT_NAME = config.DEPLOYMENT_NAME;
  const logger = opts.logger ?? createLogger({ service: "distributed", level: config.LOG_LEVEL });
  // DATA_DIR as in the all-in-one (issue 28): the embedded nats-server's store, the media and the resident DJ's state.
  const dataDir = opts.dataDir ?? config.DATA_DIR ?? path.join(repoRoot, ".data");
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

  /** Starts one process of `workload` on `port` (0: a free one) and waits until it is ready where it reported. */
  const started = new Map<string, { entry: string; env: Record<string, string>; handle: ChildHandle }>();
  const spawnReady = async (name: string, replica: number, entry: string, childEnv: Record<string, string>) => {
    const handle = spawnNodeProcess({
      name: replica === 0 ? name : `${name}#${replica}`,
      entry,
      env: childEnv,
      cwd: repoRoot,
      forwardOutput: opts.forwardOutput ?? true,
    });
    running.add(handle);
    started.set(`${name}#${replica}`, { entry, env: childEnv, handle });
    closers.push(async () => {
      await handle.stop(graceMs);
      running.delete(handle);
    });
    const ready = await waitUntilReady(handle, readyTimeoutMs, { metrics: true });
    const proc: DistributedProcess = {
      name,
      replica,
      url: ready.url,
      metricsUrl: ready.metricsUrl!,
      pid: handle.pid,
    };
    const previous = processes.findIndex((p) => p.name === name && p.replica === replica);
    if (previous >= 0) processes[previous] = proc;
    else processes.push(proc);
    logger.debug({ name, replica, url: ready.url, pid: handle.pid }, "process ready");
    return { ready, process: proc };
  };
  const startProcess = async (workload: ProcessEnv, replica: number, port: number, ports: Record<string, number>) => {
    const local = localiseEnv(workload, ports, path.join(dataDir, "media"));
    return (await spawnReady(workload.name, replica, workload.entry, childEnvironment(local.env, env, port))).ready;
  };
  const restart = async (name: string, replica = 0) => {
    const before = started.get(`${name}#${replica}`);
    if (!before) throw new Error(`no process ${name}#${replica} was started`);
    await before.handle.stop(graceMs);
    running.delete(before.handle);
    // A fresh port: the old one may still be in TIME_WAIT, and a replaced pod gets a new address as well.
    return (await spawnReady(name, replica, before.entry, { ...before.env, PORT: "0" })).process;
  };

  /**
   * The services in the catalogue's order, one process at a time (the first process of a service applies its
   * migrations before the next one starts), each service's workers after it; then the gateway. Every service's
   * first replica gets a port reserved before anything starts, so each process is given every service's URL.
   */
  const startProcesses = async (workloads: ProcessEnv[], gatewayPort: number) => {
    const byName = new Map(workloads.map((w) => [w.name, w]));
    const listed = [...serviceNames, ...serviceWorkers.map((w) => w.name)];
    const deployed = workloads.filter((w) => w.name !== "gateway").map((w) => w.name);
    const unlisted = deployed.filter((name) => !listed.includes(name));
    const undeployed = listed.filter((name) => !byName.has(name));
    if (unlisted.length > 0 || undeployed.length > 0) {
      throw new Error(
        `the chart's services and the service catalogue (services/platform/src/catalogue.ts) differ: ` +
          `deployed but not listed [${unlisted.join(", ")}], listed but not deployed [${undeployed.join(", ")}]`,
      );
    }
    const gateway = byName.get("gateway");
    if (!gateway) throw new Error("the chart rendered no gateway Deployment");
    const reserved = new Map<string, ReservedPort>();
    const reservations = await reserveLocalPorts(serviceNames.length);
    serviceNames.forEach((name, i) => reserved.set(name, reservations[i]!));
    closers.push(async () => {
      for (const port of reserved.values()) await port.release();
    });
    // The gateway and the services talk to each service's first replica.
    const ports: Record<string, number> = Object.fromEntries([...reserved].map(([name, port]) => [name, port.port]));
    /**
     * A service's first replica on its reserved port. Should another program bind that port between its release
     * and the child's listen (only a program binding that very port can: none is handed out by the system), the
     * service gets another port and the processes already given the old URL are started again with the new one.
     */
    const startFirstReplica = async (name: string) => {
      for (let attempt = 1; ; attempt++) {
        await reserved.get(name)!.release();
        try {
          await startProcess(byName.get(name)!, 0, ports[name]!, ports);
          return;
        } catch (err) {
          if (attempt >= 3 || !/could not listen: EADDRINUSE/.test(String(err))) throw err;
          logger.warn({ name, port: ports[name] }, "distributed mode: a reserved port was taken; trying another");
          const oldUrl = `http://127.0.0.1:${ports[name]}`;
          const [next] = await reserveLocalPorts(1);
          reserved.set(name, next!);
          ports[name] = next!.port;
          for (const [key, before] of started) {
            if (!Object.values(before.env).includes(oldUrl)) continue;
            const [other = "", replica = "0"] = key.split("#");
            const workload = byName.get(other);
            if (!workload) continue;
            await before.handle.stop(graceMs);
            running.delete(before.handle);
            const port = Number(before.env.PORT);
            await startProcess(workload, Number(replica), port, ports);
          }
        }
      }
    };
    for (const name of serviceNames) {
      await startFirstReplica(name);
      for (let replica = 1; replica < replicas; replica++) await startProcess(byName.get(name)!, replica, 0, ports);
      for (const worker of serviceWorkers.filter((w) => w.service === name)) {
        for (let replica = 0; replica < replicas; replica++)
          await startProcess(byName.get(worker.name)!, replica, 0, ports);
      }
    }
    await startProcess(gateway, 0, gatewayPort, ports);
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

    // The chart names the workloads; each serves on loopback (a service's first replica on its reserved port, the
    // gateway on the one asked for when not 0, every other process on a free one of its choosing). No Ingress stands in front of the gateway here: callers reach it directly, so their x-forwarded-for is
    // not trusted (TRUST_PROXY decides, as for the all-in-one).
    // The pages' settings reach the gateway's /remotes.json through the chart's values, as in a cluster (issue
    // 14): the players the all-in-one would allow from this environment (WEB_PLAYERS, or the configured
    // providers) and WEB_BRAND. The APPLE_MUSIC_* variables reach every process as the caller's environment.
    const web = loadContentSecurityOptions(env);
    const workloads = renderWorkloads({
      databaseUrl,
      natsUrl,
      dir: workDir,
      helmArgs: [
        "--set",
        `gateway.trustProxy=${config.TRUST_PROXY}`,
        "--set-json",
        `frontends.contentSecurityPolicy.players=${JSON.stringify(web.players ?? [])}`,
        ...(env.WEB_BRAND ? ["--set-string", `frontends.brand=${env.WEB_BRAND}`] : []),
      ],
    });
    await startProcesses(workloads, opts.port ?? config.PORT);

    const gateway = processes.find((p) => p.name === "gateway")!;
    // The resident DJ (RESIDENT_DJ=true), as the chart's residentDj Deployment runs it: a process of its own, a bot
    // on the gateway's public address like any outside bot, started once the gateway is ready.
    if (loadResidentDjConfig(env).RESIDENT_DJ) {
      const own = {
        SERVICE: "resident-dj",
        RESIDENT_DJ_URL: gateway.url,
        RESIDENT_DJ_STATE_FILE: path.join(dataDir, "resident-dj.json"),
      };
      await spawnReady(
        "resident-dj",
        0,
        path.join(repoRoot, "services/resident-dj/src/main.ts"),
        childEnvironment(own, env, 0),
      );
    }
    logger.info({ url: gateway.url, processes: processes.length }, "distributed platform ready");
    return { url: gateway.url, processes, close, restart };
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
  // The chart says production (a cluster); on one machine this is a development run, as `npm start` is, unless
  // the caller says otherwise: the payment service's development checkout works here and nowhere else.
  env.NODE_ENV = overrides.NODE_ENV ?? "development";
  env.PORT = String(port);
  // The chart's one metrics port would collide between processes on one machine: each binds a free one and
  // reports it; scraping stays local.
  env.METRICS_PORT = "0";
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
