// Child processes of the runners: one backend process (`node <entry>`, NODE_TYPESCRIPT_FLAGS) or a nats-server, each
// binding a port of the system's choosing (port 0) and reporting it; a readiness wait that learns the child's
// ports from its reports and fails fast when the child dies; a stop that drains before it kills.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Logger } from "pino";
import type { ListenReport } from "./distributed-watchdog.ts";
import { stopOrphan } from "./orphans.ts";
import { NODE_TYPESCRIPT_FLAGS } from "@tt/kit";

const WATCHDOG = pathToFileURL(path.join(import.meta.dirname, "distributed-watchdog.ts")).href;
const TAIL_BYTES = 8 * 1024;

export interface ChildHandle {
  name: string;
  pid: number;
  child: ChildProcess;
  /** Resolves once the child has exited, with its code or signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The last bytes the child wrote to stderr, for error messages. */
  tail(): string;
  /**
   * The child's `index`-th report on a server it started (backend processes only): the port it bound, or why it
   * could not. The kit's server reports its public port first (index 0), then its metrics port (index 1).
   */
  listenReport(index: number): Promise<ListenReport>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when it is gone. */
  stop(graceMs: number): Promise<void>;
  /** Synchronous last resort (process "exit" handlers). */
  kill(): void;
}

function supervise(name: string, child: ChildProcess, forward: boolean): ChildHandle {
  let tail = "";
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-TAIL_BYTES);
  };
  child.stderr?.on("data", (chunk: Buffer) => {
    keep(chunk);
    if (forward) process.stderr.write(chunk);
  });
  child.stdout?.on("data", (chunk: Buffer) => {
    if (forward) process.stdout.write(chunk);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve({ code: child.exitCode, signal: child.signalCode });
      return;
    }
    child.once("exit", (code, signal) => resolve({ code, signal }));
    child.once("error", (err) => {
      keep(Buffer.from(String(err)));
      resolve({ code: -1, signal: null });
    });
  });
  const reports: ListenReport[] = [];
  const waiting = new Map<number, Array<(report: ListenReport) => void>>();
  child.on("message", (message: ListenReport) => {
    if (message?.tt !== "listening" && message?.tt !== "listen-failed") return;
    const index = reports.push(message) - 1;
    for (const resolve of waiting.get(index) ?? []) resolve(message);
    waiting.delete(index);
  });
  const listenReport = (index: number) =>
    index < reports.length
      ? Promise.resolve(reports[index]!)
      : new Promise<ListenReport>((resolve) => waiting.set(index, [...(waiting.get(index) ?? []), resolve]));
  const alive = () => child.exitCode === null && child.signalCode === null && child.pid !== undefined;
  return {
    name,
    pid: child.pid ?? -1,
    child,
    exited,
    tail: () => tail,
    listenReport,
    async stop(graceMs) {
      if (!alive()) return void (await exited);
      child.kill("SIGTERM");
      let timer: NodeJS.Timeout | undefined;
      const timedOut = await Promise.race([
        exited.then(() => false),
        new Promise<true>((resolve) => (timer = setTimeout(() => resolve(true), graceMs))),
      ]);
      clearTimeout(timer);
      if (timedOut && alive()) {
        child.kill("SIGKILL");
        await exited;
      }
    },
    kill() {
      if (alive()) child.kill("SIGKILL");
    },
  };
}

/**
 * Where the children keep V8's code for the modules they compile, unless their environment names another folder
 * (NODE_COMPILE_CACHE) or turns it off (NODE_DISABLE_COMPILE_CACHE=1): Node's own default folder. Each child loads
 * and compiles the same module graph (MikroORM, Connect, the generated code, the kit); from the second start on,
 * they read the compiled code instead (the eleven processes of distributed mode: 19 CPU-s to start, 10 with the
 * cache; record 0346). Node checks each entry against the module's source, so an edited file is compiled again.
 */
export const COMPILE_CACHE_DIR = path.join(tmpdir(), "node-compile-cache");

/**
 * Starts `node <entry>` (its TypeScript run by Node, NODE_TYPESCRIPT_FLAGS) with `env` (and the compile cache,
 * COMPILE_CACHE_DIR), in its own process group (signals come from us).
 */
export function spawnNodeProcess(opts: {
  name: string;
  entry: string;
  env: Record<string, string>;
  cwd: string;
  forwardOutput: boolean;
}): ChildHandle {
  const child = spawn(process.execPath, [...NODE_TYPESCRIPT_FLAGS, "--import", WATCHDOG, opts.entry], {
    cwd: opts.cwd,
    env: { NODE_COMPILE_CACHE: COMPILE_CACHE_DIR, ...opts.env },
    // A terminal's Ctrl-C goes to the whole foreground group; the supervisor decides the stop order instead.
    detached: true,
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  return supervise(opts.name, child, opts.forwardOutput);
}

export class ChildExitedError extends Error {
  override name = "ChildExitedError";
}

/** Where a ready child serves. */
export interface ChildReady {
  /** http://127.0.0.1:<the port the child reported>. */
  url: string;
  port: number;
  /** http://127.0.0.1:<its metrics port>, when it was asked to report one. */
  metricsUrl?: string;
}

/**
 * Waits until the child reports the port its server bound (its PORT may be 0: the system picks a free one, so
 * no other process can take it between the pick and the bind), and its metrics port after it when `metrics`
 * is set; then polls `/readyz` on the reported port until it answers 200. At most `timeoutMs` in all, failing
 * at once when the child exits first or reports that a server could not listen.
 */
export async function waitUntilReady(
  handle: ChildHandle,
  timeoutMs: number,
  opts: { metrics?: boolean } = {},
): Promise<ChildReady> {
  const deadline = performance.now() + timeoutMs;
  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  void handle.exited.then((e) => (exited = e));
  const exitedError = () =>
    new ChildExitedError(
      `${handle.name} exited (code ${exited?.code}, signal ${exited?.signal}) before it was ready:\n${handle.tail()}`,
    );
  const report = async (index: number, what: string): Promise<number> => {
    let timer: NodeJS.Timeout | undefined;
    const answer = await Promise.race([
      handle.listenReport(index),
      handle.exited.then(() => undefined),
      new Promise<undefined>(
        (resolve) => (timer = setTimeout(() => resolve(undefined), Math.max(0, deadline - performance.now()))),
      ),
    ]);
    clearTimeout(timer);
    if (answer?.tt === "listening") return answer.port;
    if (answer?.tt === "listen-failed") {
      const port = answer.port === undefined ? "" : ` (port ${answer.port})`;
      throw new Error(`${handle.name}: its ${what} server could not listen: ${answer.code}${port}\n${handle.tail()}`);
    }
    if (exited) throw exitedError();
    throw new Error(`${handle.name} reported no ${what} port within ${timeoutMs} ms:\n${handle.tail()}`);
  };
  const port = await report(0, "public");
  const url = `http://127.0.0.1:${port}`;
  const metricsUrl = opts.metrics ? `http://127.0.0.1:${await report(1, "metrics")}` : undefined;
  let lastError = "no answer yet";
  while (performance.now() < deadline) {
    if (exited) throw exitedError();
    try {
      const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(1000) });
      await res.body?.cancel();
      if (res.status === 200) return { url, port, ...(metricsUrl ? { metricsUrl } : {}) };
      lastError = `/readyz answered ${res.status}`;
    } catch (err) {
      lastError = String(err);
    }
    // Bounded poll interval; the exit check above makes a crash surface within one interval.
    await Promise.race([new Promise((r) => setTimeout(r, 100)), handle.exited]);
  }
  throw new Error(`${handle.name} was not ready within ${timeoutMs} ms (${lastError}):\n${handle.tail()}`);
}

/**
 * Starts `nats-server -js` on a loopback port of the system's choosing (`-p -1`), learnt from its log line
 * "Listening for client connections on <host>:<port>"; resolves once it accepts clients, or null when it is not
 * installed. Its pid file sits in the store folder, so the next start stops a server that a hard-killed run
 * left behind on the same JetStream store.
 */
export async function startNatsServer(
  storeDir: string,
  logger: Logger,
): Promise<{ url: string; handle: ChildHandle } | null> {
  await mkdir(storeDir, { recursive: true });
  const pidFile = path.join(storeDir, "nats-server.pid");
  await stopOrphan(pidFile, "nats-server", logger, "SIGTERM");
  const args = ["-a", "127.0.0.1", "-p", "-1", "-js", "-sd", storeDir, "-P", pidFile];
  const child = spawn("nats-server", args, { stdio: ["ignore", "ignore", "pipe"] });
  const handle = supervise("nats-server", child, false);
  const port = await new Promise<number | undefined>((resolve) => {
    void handle.exited.then(() => resolve(undefined));
    const onData = () => {
      const log = handle.tail();
      const listening = /Listening for client connections on [^\s]*:(\d+)/.exec(log);
      if (!listening || !log.includes("Server is ready")) return;
      child.stderr?.off("data", onData);
      resolve(Number(listening[1]));
    };
    child.stderr?.on("data", onData);
  });
  if (port === undefined) return null;
  logger.debug({ port }, "nats-server started");
  return { url: `nats://127.0.0.1:${port}`, handle };
}
