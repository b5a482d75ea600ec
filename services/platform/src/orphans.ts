// A hard kill of the all-in-one process leaves the servers it started (PostgreSQL, nats-server) running,
// orphaned, on the same data folders. The next start stops them through their pid files first.
import { readFile } from "node:fs/promises";
import type { Logger } from "pino";

/** True while a process with this pid exists (signal 0 probes without signalling). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The pid on the first line of a pid file (PostgreSQL's postmaster.pid, nats-server's -P file); undefined without one. */
export async function pidIn(pidFile: string): Promise<number | undefined> {
  const text = await readFile(pidFile, "utf8").catch((err: NodeJS.ErrnoException) => {
    if (err.code === "ENOENT") return undefined;
    throw err;
  });
  return text === undefined ? undefined : Number(text.split("\n")[0]);
}

/** Stops the process named by the first line of `pidFile` if it still runs; waits until it has exited. */
export async function stopOrphan(pidFile: string, what: string, logger: Logger, signal: NodeJS.Signals = "SIGINT") {
  const pid = await pidIn(pidFile);
  if (pid === undefined || !Number.isInteger(pid) || pid <= 1 || pid === process.pid || !alive(pid)) return;
  logger.warn({ pid }, `stopping the ${what} left running by a previous run`);
  process.kill(pid, signal);
  const deadline = Date.now() + 15_000;
  while (alive(pid)) {
    if (Date.now() > deadline) throw new Error(`${what} (pid ${pid}) of a previous run did not stop`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
