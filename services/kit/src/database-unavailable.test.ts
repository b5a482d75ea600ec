// Issue 28: a database that cannot be reached answers 503 / `unavailable` ("The database is unavailable, try
// again", retryable), never 500 "internal error". Every error here is a real one: made by the pg driver and by
// MikroORM against a closed port, a server that never answers, and a connection PostgreSQL terminates.
import { createServer, type Server, type Socket } from "node:net";
import { Code, ConnectError } from "@connectrpc/connect";
import { MikroORM } from "@mikro-orm/postgresql";
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import {
  DATABASE_UNAVAILABLE_MESSAGE,
  INTERNAL_ERROR_MESSAGE,
  isDatabaseUnavailable,
  toConnectError,
} from "./errors.ts";
import { freePort } from "./net.ts";

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error("expected a rejection");
}

function expectUnavailable(err: unknown): void {
  const e = toConnectError(err);
  expect([e.code, e.rawMessage]).toEqual([Code.Unavailable, DATABASE_UNAVAILABLE_MESSAGE]);
  expect(e.cause).toBe(err);
  expect(isDatabaseUnavailable(err)).toBe(true);
}

const databaseUrl = inject("databaseUrl");
const closers: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => {});
});

describe("a database that cannot be reached is unavailable (503), never internal", () => {
  it("MikroORM's DriverException for a closed port", async () => {
    const port = await freePort();
    // The pg driver's own error, as MikroORM receives it.
    const client = new pg.Client({ host: "127.0.0.1", port, user: "postgres", database: "postgres" });
    expect((await rejection(client.connect())) as { code?: string }).toMatchObject({ code: "ECONNREFUSED" });
    const orm = await MikroORM.init({
      clientUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
      entities: [],
      discovery: { warnWhenNoEntities: false },
    });
    closers.push(() => orm.close(true));
    const err = await rejection(orm.em.fork().execute("select 1"));
    expect((err as Error).constructor.name).toBe("DriverException");
    expectUnavailable(err);
  });

  it("MikroORM's DriverException for the pool's connection timeout (a server that never answers)", async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((s) => sockets.push(s));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    // Not awaited: close() waits for connections the pool may still be opening.
    closers.push(async () => {
      silent.close();
      for (const s of sockets) s.destroy();
    });
    const { port } = silent.address() as { port: number };
    const orm = await MikroORM.init({
      clientUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
      entities: [],
      discovery: { warnWhenNoEntities: false },
      driverOptions: { connectionTimeoutMillis: 200 },
    });
    closers.push(() => orm.close(true));
    const err = await rejection(orm.em.fork().execute("select 1"));
    expect((err as Error).constructor.name).toBe("DriverException");
    expectUnavailable(err);
  });

  it("a connection PostgreSQL terminates (57P01, administrator command), and the next query on it", async () => {
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    closers.push(() => admin.end());
    const victim = new pg.Client({ connectionString: databaseUrl });
    victim.on("error", () => {});
    await victim.connect();
    const { rows } = await victim.query<{ pid: number }>("select pg_backend_pid() as pid");
    const running = rejection(victim.query("select pg_sleep(10)"));
    // Terminated while the query runs (not before it reached the server).
    await expect
      .poll(
        async () =>
          (await admin.query("select state from pg_stat_activity where pid = $1", [rows[0]!.pid])).rows[0]?.state,
        { timeout: 5000, interval: 20 },
      )
      .toBe("active");
    await admin.query("select pg_terminate_backend($1)", [rows[0]!.pid]);
    const err = await running;
    expect((err as { code?: string }).code).toBe("57P01");
    expectUnavailable(err);
    expectUnavailable(await rejection(victim.query("select 1")));
  });

  it("MikroORM's DriverException for a terminated connection in a transaction", async () => {
    const orm = await MikroORM.init({ clientUrl: databaseUrl, entities: [], discovery: { warnWhenNoEntities: false } });
    // Not awaited: the pool's end waits for the terminated connection the transaction never gave back.
    closers.push(async () => void orm.close(true).catch(() => {}));
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    closers.push(() => admin.end());
    const err = await rejection(
      orm.em.fork().transactional(async (em) => {
        const [row] = await em.execute<{ pid: number }[]>("select pg_backend_pid() as pid");
        await admin.query("select pg_terminate_backend($1)", [row!.pid]);
        await em.execute("select 1");
      }),
    );
    expect((err as Error).constructor.name).toBe("DriverException");
    expectUnavailable(err);
  });

  it("keeps other errors as they were: a query's own error is internal, a socket error of another kind is not the database's", async () => {
    const orm = await MikroORM.init({ clientUrl: databaseUrl, entities: [], discovery: { warnWhenNoEntities: false } });
    closers.push(() => orm.close(true));
    const syntax = await rejection(orm.em.fork().execute("select from nowhere where"));
    expect(isDatabaseUnavailable(syntax)).toBe(false);
    expect(toConnectError(syntax).code).toBe(Code.Internal);

    const fetchRefused = await rejection(fetch(`http://127.0.0.1:${await freePort()}/`));
    expect(isDatabaseUnavailable(fetchRefused)).toBe(false);
    expect([toConnectError(fetchRefused).code, toConnectError(fetchRefused).rawMessage]).toEqual([
      Code.Internal,
      INTERNAL_ERROR_MESSAGE,
    ]);
    const answered = new ConnectError("nope", Code.NotFound);
    expect(toConnectError(answered)).toBe(answered);
  });
});
