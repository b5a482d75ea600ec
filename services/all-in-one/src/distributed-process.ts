// Child processes of the runners: one backend process (`node --import tsx <entry>`) or a nats-server,
// with a readiness wait that fails fast when the child dies, and a stop that drains before it kills.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Logger } from "pino";
import type { ListenReport } from "./distributed-watchdog.ts";
import { stopOrphan } from "./orphans.ts";
import { freePort } from "@tt/kit";

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
  /** The child's first report on its server: the port it bound, or why it could not (backend processes only). */
  listened: Promise<ListenReport>;
  /** A later server of the child (its metrics server) that could not listen, if any. */
  laterListenFailure(): Extract<ListenReport, { tt: "listen-failed" }> | undefined;
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
  let first = true;
  let laterFailure: Extract<ListenReport, { tt: "listen-failed" }> | undefined;
  const listened = new Promise<ListenReport>((resolve) => {
    const onMessage = (message: ListenReport) => {
      if (message?.tt !== "listening" && message?.tt !== "listen-failed") return;
      if (first) resolve(message);
      else if (message.tt === "listen-failed") laterFailure ??= message;
      first = false;
    };
    child.on("message", onMessage);
  });
  const alive = () => child.exitCode === null && child.signalCode === null && child.pid !== undefined;
  return {
    name,
    pid: child.pid ?? -1,
    child,
    exited,
    tail: () => tail,
    listened,
    laterListenFailure: () => laterFailure,
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

/** Starts `node --import tsx <entry>` with exactly `env`, in its own process group (signals come from us). */
export function spawnNodeProcess(opts: {
  name: string;
  entry: string;
  env: Record<string, string>;
  cwd: string;
  forwardOutput: boolean;
}): ChildHandle {
  const child = spawn(process.execPath, ["--import", "tsx", "--import", WATCHDOG, opts.entry], {
    cwd: opts.cwd,
    env: opts.env,
    // A terminal's Ctrl-C goes to the whole foreground group; the supervisor decides the stop order instead.
    detached: true,
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  return supervise(opts.name, child, opts.forwardOutput);
}

export class ChildExitedError extends Error {
  override name = "ChildExitedError";
}

/** The port picked for a child was taken by another process before the child could bind it. */
export class PortInUseError extends Error {
  override name = "PortInUseError";
  constructor(
    readonly process: string,
    readonly port: number,
  ) {
    super(`${process}: port ${port} was taken by another process before it could listen there`);
  }
}

/**
 * Waits until the child reports that it listens on `url`'s port (PortInUseError when that port was taken
 * meanwhile), then polls `<url>/readyz` until it answers 200; at most `timeoutMs` in all, failing at once when
 * the child exits first.
 */
export async function waitUntilReady(handle: ChildHandle, url: string, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  void handle.exited.then((e) => (exited = e));
  const port = Number(new URL(url).port);
  let timer: NodeJS.Timeout | undefined;
  const report = await Promise.race([
    handle.listened,
    handle.exited.then(() => undefined),
    new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), timeoutMs))),
  ]);
  clearTimeout(timer);
  if (report?.tt === "listen-failed" && report.code === "EADDRINUSE") throw new PortInUseError(handle.name, port);
  if (report?.tt === "listening" && report.port !== port) {
    throw new Error(`${handle.name} listens on port ${report.port}, not on ${port}`);
  }
  let lastError = report ? "no answer yet" : "it reported no listening port";
  while (performance.now() < deadline) {
    if (exited) {
      // Its metrics port, also picked as free, was taken meanwhile: start again on fresh ports as well.
      const late = handle.laterListenFailure();
      if (late?.code === "EADDRINUSE" && late.port !== undefined) throw new PortInUseError(handle.name, late.port);
      throw new ChildExitedError(
        `${handle.name} exited (code ${exited.code}, signal ${exited.signal}) before it was ready:\n${handle.tail()}`,
      );
    }
    try {
      const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(1000) });
      await res.body?.cancel();
      if (res.status === 200) return;
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
 * Starts `nats-server -js` on a free loopback port; resolves once it accepts clients, or null when it is not
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
  const port = await freePort();
  const args = ["-a", "127.0.0.1", "-p", String(port), "-js", "-sd", storeDir, "-P", pidFile];
  const child = spawn("nats-server", args, { stdio: ["ignore", "ignore", "pipe"] });
  const handle = supervise("nats-server", child, false);
  const ready = await new Promise<boolean>((resolve) => {
    void handle.exited.then(() => resolve(false));
    const onData = (chunk: Buffer) => {
      if (!chunk.toString().includes("Server is ready") && !handle.tail().includes("Server is ready")) return;
      child.stderr?.off("data", onData);
      resolve(true);
    };
    child.stderr?.on("data", onData);
  });
  if (!ready) return null;
  logger.debug({ port }, "nats-server started");
  return { url: `nats://127.0.0.1:${port}`, handle };
}
