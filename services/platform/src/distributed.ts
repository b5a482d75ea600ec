// `npm run start:distributed`: the platform as a cluster runs it, on one machine. Each backend Deployment
// of the Helm chart becomes a separate `node <entry>` process with the environment the chart
// gives it (render-env.ts), on loopback ports; the gateway reaches the services over HTTP/2
// and every event goes through a real NATS. The end-to-end suite runs against this as well as all-in-one.
// Every service replica's port is reserved before any process starts (local-ports.ts: a free loopback port outside the
// system's ephemeral range, held by this process until its replica is spawned), so every process is given every
// other service's URL, as the chart gives them, and every replica's when a service runs several (comma-separated: the
// callers spread their calls over them, the kit's transport/replicas.ts, as a cluster's Service would); the services
// then start side by side (each service's own processes one after the other) and the gateway last (record 0346).
// Workers and metrics servers bind port 0 and report what they got (distributed-watchdog.ts): nobody calls them by a
// URL given in advance.
// Issue 28 finding 5: as a cluster replaces a pod, a process that exits by itself is started again, after a delay
// that doubles while it keeps exiting (RESTART_DELAY_MS up to MAX_RESTART_DELAY_MS, from the start again once it
// stayed up RESTART_BACKOFF_RESET_MS), on the port it had (a service replica, the gateway), and this is logged.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createLogger, installProcessGuards } from "@tt/kit";
import { loadResidentDjConfig } from "@tt/resident-dj";
import { loadContentSecurityOptions } from "@tt/web-server";
import type { Logger } from "pino";
import { localiseEnv, renderWorkloads, repoRoot, type ProcessEnv } from "./render-env.ts";
import { serviceNames, serviceWorkers } from "./catalogue.ts";
import { loadAllInOneConfig } from "./config.ts";
import { openDatabase } from "./embedded-postgres.ts";
import { spawnNodeProcess, startNatsServer, waitUntilReady, type ChildHandle } from "./distributed-process.ts";
import { reserveLocalPorts, type ReservedPort } from "./local-ports.ts";
import {
  checkReplicas,
  parseReplicas,
  replicasArgument,
  replicasOf,
  ReplicasError,
  type ReplicaCounts,
} from "./replicas.ts";

/** The first delay before a process that exited by itself is started again. */
export const RESTART_DELAY_MS = 500;
/** The longest delay before such a restart (the delay doubles at each exit in a row). */
export const MAX_RESTART_DELAY_MS = 10_000;
/** A process that stayed up this long before it exited is restarted after the first delay again. */
export const RESTART_BACKOFF_RESET_MS = 30_000;

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
  /**
   * Processes per workload: a number for every service and worker (the chart runs two replicas), or a number by
   * workload name (`{ social: 2 }`; a worker by its own name, `upload-worker`), the others one. Every process is given
   * every replica's URL of the services it calls, and spreads its calls over them. Default: env REPLICAS
   * (`2`, `social=2,room=2`), else 1.
   */
  replicas?: ReplicaCounts;
  /**
   * Start a process again when it exits by itself (not through close() or restart()), as a cluster replaces a pod:
   * after RESTART_DELAY_MS, doubling while it keeps exiting up to MAX_RESTART_DELAY_MS, on the port it had. Default true.
   */
  restartOnExit?: boolean;
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
  /** Each service's replicas, then its workers', in the catalogue's order; the gateway; the resident DJ when on. */
  processes: DistributedProcess[];
  /** Stops the gateway, then the services (each drains on SIGTERM, killed after the timeout), then NATS and PostgreSQL. */
  close(): Promise<void>;
  /**
   * Starts a process of `name` again (as the cluster would replace a pod), with the environment it was first
   * started with and on the same port (a service replica, the gateway), once the previous one is gone; resolves when
   * it is ready. A running process is stopped first (SIGTERM, killed after the drain timeout). One that exited (killed
   * by the caller) and is waiting for its automatic restart is started at once; one whose automatic restart is under
   * way is not started twice: that start is the answer.
   */
  restart(name: string, replica?: number): Promise<DistributedProcess>;
  /**
   * Stops a process (SIGTERM, killed after the drain timeout; at once when it already exited) and keeps it stopped —
   * no automatic restart — until restart(): a workload scaled to zero, for an outage longer than a restart takes.
   */
  stop(name: string, replica?: number): Promise<void>;
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
  const workloadNames = [...serviceNames, ...serviceWorkers.map((w) => w.name)];
  const replicas = checkReplicas(
    opts.replicas ?? (env.REPLICAS ? parseReplicas(env.REPLICAS, "REPLICAS", workloadNames) : 1),
    "replicas",
    workloadNames,
  );
  const restartOnExit = opts.restartOnExit ?? true;
  // Long enough for a child's own drain (SHUTDOWN_TIMEOUT_MS) before it is killed.
  const graceMs = config.SHUTDOWN_TIMEOUT_MS + 2000;
  const closers: Array<() => Promise<void>> = [];
  const processes: DistributedProcess[] = [];
  let closing = false;
  const close = async () => {
    closing = true;
    for (const closer of closers.splice(0).reverse()) {
      try {
        await closer();
      } catch (err) {
        logger.error({ err }, "distributed mode: a shutdown step failed");
      }
    }
  };

  /** One process slot (a workload's replica) and the child that fills it now. */
  interface Supervised {
    name: string;
    replica: number;
    entry: string;
    env: Record<string, string>;
    /** Whether it must come back on the port it had: others were given its URL (a service replica, the gateway). */
    keepPort: boolean;
    handle?: ChildHandle;
    /** Set while this runner stops the child itself (close, restart, a port change): that exit is not a crash. */
    stopping: boolean;
    /** Whether the slot has been ready once: until then a failed start fails the whole start instead. */
    started: boolean;
    /** Exits in a row, for the restart delay. */
    exits: number;
    readyAt: number;
    timer?: NodeJS.Timeout;
    starting?: Promise<DistributedProcess>;
  }
  const supervised = new Map<string, Supervised>();

  /** The slot's child, started with its environment; resolves when it is ready where it reported. */
  const spawnReady = async (slot: Supervised): Promise<DistributedProcess> => {
    if (closing) throw new Error(`distributed mode is closing: ${slot.name}#${slot.replica} is not started`);
    const handle = spawnNodeProcess({
      name: slot.replica === 0 ? slot.name : `${slot.name}#${slot.replica}`,
      entry: slot.entry,
      env: slot.env,
      cwd: repoRoot,
      forwardOutput: opts.forwardOutput ?? true,
    });
    slot.handle = handle;
    running.add(handle);
    void handle.exited.then((exit) => exited(slot, handle, exit));
    const ready = await waitUntilReady(handle, readyTimeoutMs, { metrics: true }).catch((err: unknown) => {
      // Not ready in time, or its server could not listen: it goes, and its exit decides what comes next.
      handle.kill();
      throw err;
    });
    // Started again later on the same port (others have its URL; a port-0 worker takes a free one again).
    if (slot.keepPort) slot.env.PORT = String(ready.port);
    slot.started = true;
    slot.readyAt = performance.now();
    const proc: DistributedProcess = {
      name: slot.name,
      replica: slot.replica,
      url: ready.url,
      metricsUrl: ready.metricsUrl!,
      pid: handle.pid,
    };
    const previous = processes.findIndex((p) => p.name === slot.name && p.replica === slot.replica);
    if (previous >= 0) processes[previous] = proc;
    else processes.push(proc);
    logger.debug({ name: slot.name, replica: slot.replica, url: ready.url, pid: handle.pid }, "process ready");
    return proc;
  };

  /** A child's exit: a crash of a slot that was ready once is restarted after the backoff. */
  const exited = (
    slot: Supervised,
    handle: ChildHandle,
    exit: { code: number | null; signal: NodeJS.Signals | null },
  ) => {
    running.delete(handle);
    if (closing || !restartOnExit || slot.handle !== handle || slot.stopping || !slot.started) return;
    if (slot.readyAt > 0 && performance.now() - slot.readyAt >= RESTART_BACKOFF_RESET_MS) slot.exits = 0;
    slot.readyAt = 0;
    const delayMs = Math.min(MAX_RESTART_DELAY_MS, RESTART_DELAY_MS * 2 ** Math.min(slot.exits, 30));
    slot.exits += 1;
    logger.warn(
      {
        name: slot.name,
        replica: slot.replica,
        pid: handle.pid,
        code: exit.code,
        signal: exit.signal,
        attempt: slot.exits,
        delayMs,
      },
      "distributed mode: a process exited; starting it again",
    );
    slot.timer = setTimeout(() => {
      slot.timer = undefined;
      startAgain(slot).catch(() => undefined);
    }, delayMs);
  };

  /** Starts the slot's child again (its previous one gone); a failed start is retried by its exit. */
  const startAgain = (slot: Supervised): Promise<DistributedProcess> => {
    const attempt = slot.exits;
    const starting = spawnReady(slot).finally(() => {
      if (slot.starting === starting) slot.starting = undefined;
    });
    slot.starting = starting;
    starting.then(
      (p) =>
        logger.info(
          { name: p.name, replica: p.replica, pid: p.pid, url: p.url, attempt },
          "distributed mode: a process is back",
        ),
      (err: unknown) => {
        if (!closing)
          logger.warn({ err, name: slot.name, replica: slot.replica, attempt }, "distributed mode: a restart failed");
      },
    );
    return starting;
  };

  /** Stops the slot's child itself (no automatic restart follows); resolves once it is gone. */
  const stopSlot = async (slot: Supervised) => {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = undefined;
    const handle = slot.handle;
    if (!handle) return;
    slot.stopping = true;
    try {
      await handle.stop(graceMs);
    } finally {
      slot.stopping = false;
      running.delete(handle);
    }
  };

  /** A new slot, started; its child is stopped on close. */
  const startSlot = (
    name: string,
    replica: number,
    entry: string,
    childEnv: Record<string, string>,
    keepPort: boolean,
  ) => {
    const slot: Supervised = {
      name,
      replica,
      entry,
      env: childEnv,
      keepPort,
      stopping: false,
      started: false,
      exits: 0,
      readyAt: 0,
    };
    supervised.set(`${name}#${replica}`, slot);
    closers.push(async () => {
      // An automatic restart under way is stopped with the rest: its child is the slot's child.
      await stopSlot(slot);
    });
    return spawnReady(slot);
  };

  const restart = async (name: string, replica = 0) => {
    const slot = supervised.get(`${name}#${replica}`);
    if (!slot) throw new Error(`no process ${name}#${replica} was started`);
    if (slot.starting) return slot.starting;
    // Stopped first when it runs; at once when it already exited (its automatic restart, due later, is dropped).
    await stopSlot(slot);
    slot.exits = 0;
    return startAgain(slot);
  };

  const stop = async (name: string, replica = 0) => {
    const slot = supervised.get(`${name}#${replica}`);
    if (!slot) throw new Error(`no process ${name}#${replica} was started`);
    await slot.starting?.catch(() => undefined);
    await stopSlot(slot);
  };

  /** What a process of `workload` on `port` is given, with the services at `ports`. */
  const environmentOf = (workload: ProcessEnv, ports: Record<string, number[]>, port: number) =>
    childEnvironment(localiseEnv(workload, ports, path.join(dataDir, "media")).env, env, port);

  const startProcess = (
    workload: ProcessEnv,
    replica: number,
    port: number,
    ports: Record<string, number[]>,
    keepPort: boolean,
  ) => startSlot(workload.name, replica, workload.entry, environmentOf(workload, ports, port), keepPort);

  /**
   * The services side by side, each service's processes one at a time (its first replica applies its migrations
   * before the next one starts, its workers after them); then the gateway. Every service replica gets a port reserved
   * before anything starts, so each process is given every replica's URL of every service.
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
    const slots = serviceNames.flatMap((name) =>
      Array.from({ length: replicasOf(replicas, name) }, (_, replica) => `${name}#${replica}`),
    );
    const reservations = await reserveLocalPorts(slots.length);
    slots.forEach((slot, i) => reserved.set(slot, reservations[i]!));
    closers.push(async () => {
      for (const port of reserved.values()) await port.release();
    });
    // Every service replica's port, by service: each process is given the URLs of all of them.
    const ports: Record<string, number[]> = {};
    for (const [slot, port] of reserved) {
      const [name = ""] = slot.split("#");
      (ports[name] ??= []).push(port.port);
    }
    /** URLs of ports a replica could not bind: processes given them are started again once all are up. */
    const movedUrls = new Set<string>();
    /**
     * A service replica on its reserved port. Should another program bind that port between its release and the
     * child's listen (only a program binding that very port can: none is handed out by the system), the replica
     * gets another port, and the processes given the old URL are started again with the new one afterwards.
     */
    const startReplica = async (name: string, replica: number) => {
      const key = `${name}#${replica}`;
      for (let attempt = 1; ; attempt++) {
        await reserved.get(key)!.release();
        try {
          if (supervised.has(key)) {
            const slot = supervised.get(key)!;
            slot.env = environmentOf(byName.get(name)!, ports, ports[name]![replica]!);
            await spawnReady(slot);
          } else {
            await startProcess(byName.get(name)!, replica, ports[name]![replica]!, ports, true);
          }
          return;
        } catch (err) {
          if (attempt >= 3 || !/could not listen: EADDRINUSE/.test(String(err))) throw err;
          logger.warn(
            { name, replica, port: ports[name]![replica] },
            "distributed mode: a reserved port was taken; trying another",
          );
          movedUrls.add(`http://127.0.0.1:${ports[name]![replica]}`);
          const [next] = await reserveLocalPorts(1);
          reserved.set(key, next!);
          ports[name]![replica] = next!.port;
        }
      }
    };
    // The services side by side, as a cluster starts its Deployments: each has its own schema, streams and port.
    // A service's own processes one at a time: its first replica applies its migrations before the next one
    // starts, then its workers. Every chain is waited for before a failure is thrown, so that none still starts
    // while the runner closes.
    const workersOf = (name: string) => serviceWorkers.filter((w) => w.service === name);
    const chains = await Promise.allSettled(
      serviceNames.map(async (name) => {
        for (let replica = 0; replica < replicasOf(replicas, name); replica++) await startReplica(name, replica);
        for (const worker of workersOf(name)) {
          for (let replica = 0; replica < replicasOf(replicas, worker.name); replica++)
            await startProcess(byName.get(worker.name)!, replica, 0, ports, false);
        }
      }),
    );
    const failed = chains.find((chain) => chain.status === "rejected");
    if (failed) throw failed.reason;
    // Listed in the order of the start, each service followed by its workers; not in the order they became ready.
    const order = serviceNames.flatMap((name) => [name, ...workersOf(name).map((w) => w.name)]);
    processes.sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name) || a.replica - b.replica);
    for (const slot of supervised.values()) {
      if (!Object.values(slot.env).some((value) => value.split(",").some((url) => movedUrls.has(url)))) continue;
      const workload = byName.get(slot.name);
      if (!workload) continue;
      await stopSlot(slot);
      slot.env = environmentOf(workload, ports, Number(slot.env.PORT));
      await spawnReady(slot);
    }
    await startProcess(gateway, 0, gatewayPort, ports, true);
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
      await startSlot(
        "resident-dj",
        0,
        path.join(repoRoot, "services/resident-dj/src/main.ts"),
        childEnvironment(own, env, 0),
        false,
      );
    }
    logger.info({ url: gateway.url, processes: processes.length }, "distributed platform ready");
    return { url: gateway.url, processes, close, restart, stop };
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

const USAGE = `npm run start:distributed [-- --replicas <n | name=n,…>]

Runs the platform as the Helm chart deploys it, one process per Deployment, on this machine (README.md,
"Distributed mode"). A process that exits by itself is started again on its port, after a delay that doubles
while it keeps exiting.

  --replicas 2                  two processes of every service and worker
  --replicas social=2,room=2    two of these (a worker by its own name: upload-worker=2), one of the others
                                (also REPLICAS=…; the command line wins). Callers spread their calls over them.
  --help                        this text

The environment is read as by npm start (DATABASE_URL, NATS_URL, PORT, DATA_DIR, LOG_LEVEL, …: README.md).
`;

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(USAGE);
    return;
  }
  const unknown = args.filter((a, i) => !a.startsWith("--replicas") && args[i - 1] !== "--replicas");
  if (unknown.length > 0) throw new ReplicasError(`unknown argument ${unknown[0]}\n\n${USAGE}`);
  const workloads = [...serviceNames, ...serviceWorkers.map((w) => w.name)];
  const argument = replicasArgument(args);
  const replicas = argument === undefined ? undefined : parseReplicas(argument, "--replicas", workloads);
  const config = loadAllInOneConfig(process.env);
  const logger = createLogger({ service: "distributed", level: config.LOG_LEVEL });
  // The supervisor must outlive a bug of its own, or its children would be stopped with it (issue 9 defect 1).
  installProcessGuards({ logger });
  const stop = new AbortController();
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => stop.abort());
  const platform = await startDistributed({ logger, ...(replicas === undefined ? {} : { replicas }) });
  // Only the chart's backend Deployments run here: its frontends Deployment (the web apps) does not, so the URL is
  // the API's, and a newcomer opening it in a browser is told where the pages are.
  process.stdout.write(
    `\nturntable (distributed): the gateway is listening on ${platform.url} (the REST API under /api; ` +
      `the web apps are not part of this mode: \`npm start\` serves them on one machine)\n`,
  );
  for (const p of platform.processes) {
    const name = p.replica === 0 ? p.name : `${p.name}#${p.replica}`;
    process.stdout.write(`  ${name.padEnd(10)} ${p.url}  metrics ${p.metricsUrl}  pid ${p.pid}\n`);
  }
  process.stdout.write("\n");
  if (!stop.signal.aborted) await new Promise((resolve) => stop.signal.addEventListener("abort", resolve));
  logger.info("shutting down");
  await platform.close();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    // A bad argument or REPLICAS is said plainly, without a stack.
    const text =
      err instanceof ReplicasError ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err);
    process.stderr.write(`${text}\n`);
    process.exitCode = 1;
  });
}
