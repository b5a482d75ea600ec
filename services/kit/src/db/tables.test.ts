// The kit's typed SQL helpers on a real database: a statement compiled once runs with each call's values, and a
// placeholder that would not be a parameter is refused instead of running wrong.
import type { MikroORM } from "@mikro-orm/postgresql";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../testing/index.ts";
import { throttleMigration } from "../throttle/migration.ts";
import { ThrottleWindowSchema } from "../throttle/throttle-window.entity.ts";
import { initOrm, migrateUp } from "./orm.ts";
import { compiledOnce, jsonRows, sql, sqlArray, typedSql, unnestRows, type Tables } from "./tables.ts";

type T = Tables<[typeof ThrottleWindowSchema]>;
const q = (em: Parameters<typeof typedSql>[0]) => typedSql<T>(em);

let db: TestDatabase;
let orm: MikroORM;

beforeAll(async () => {
  db = await createTestDatabase(inject("databaseUrl"));
  orm = await initOrm({
    url: db.url,
    schema: "typed",
    entities: [ThrottleWindowSchema],
    migrations: [throttleMigration("typed")],
  });
  await migrateUp(orm);
  await q(orm.em.fork())
    .insertInto("throttle_window")
    .columns(["key", "window_start", "hits"])
    .expression((eb) =>
      eb
        .selectFrom(unnestRows("u", { key: sqlArray(["a", "b", "c"], "text"), hits: sqlArray([1, 2, 3], "int") }))
        .select(["u.key", sql<Date>`now()`.as("window_start"), "u.hits"]),
    )
    .execute();
});

afterAll(async () => {
  await orm?.close(true);
  await db?.drop();
});

describe("compiledOnce", () => {
  it("runs the statement compiled at its first call with each call's values", async () => {
    const hitsOver = compiledOnce(q, (k, p: { min: number; limit: number }) =>
      k.selectFrom("throttle_window").select(["key", "hits"]).where("hits", ">", p.min).orderBy("key").limit(p.limit),
    );
    const em = orm.em.fork();
    expect(await hitsOver(em, { min: 0, limit: 10 })).toEqual([
      { key: "a", hits: 1 },
      { key: "b", hits: 2 },
      { key: "c", hits: 3 },
    ]);
    expect(await hitsOver(em, { min: 1, limit: 1 })).toEqual([{ key: "b", hits: 2 }]);
    // In the caller's transaction: it sees the transaction's own writes.
    const rollBack = new Error("roll back");
    let inTransaction: unknown;
    const ended = await em
      .transactional(async (tem) => {
        await q(tem).updateTable("throttle_window").set({ hits: 9 }).where("key", "=", "a").execute();
        inTransaction = await hitsOver(tem, { min: 8, limit: 10 });
        throw rollBack;
      })
      .catch((err: unknown) => err);
    expect(ended).toBe(rollBack);
    expect(inTransaction).toEqual([{ key: "a", hits: 9 }]);
    expect(await hitsOver(em, { min: 8, limit: 10 })).toEqual([]);
  });

  it("refuses a placeholder that does not become a parameter of its own", async () => {
    const branching = compiledOnce(q, (k, p: { key: string }) =>
      p.key ? k.selectFrom("throttle_window").select("hits") : k.selectFrom("throttle_window").select("key"),
    );
    await expect(branching(orm.em.fork(), { key: "a" })).rejects.toThrow(/key did not become parameters/);
    const inArray = compiledOnce(q, (k, p: { key: string }) =>
      k.selectFrom("throttle_window").select("hits").where("key", "in", [p.key, "b"]),
    );
    // An IN list makes one parameter per item: the placeholder is one of them, as itself, so it works.
    expect(await inArray(orm.em.fork(), { key: "c" })).toHaveLength(2);
    const spread = compiledOnce(q, (k, p: { key: string }) =>
      k
        .selectFrom("throttle_window")
        .select("hits")
        .where((eb) => eb("key", "=", eb.fn.any(sqlArray([p.key], "text")))),
    );
    await expect(spread(orm.em.fork(), { key: "a" })).rejects.toThrow(/not in an array/);
  });
});

describe("jsonRows", () => {
  it("reads rows from one jsonb parameter with their types", async () => {
    const rows = await q(orm.em.fork())
      .selectFrom(
        jsonRows(
          "r",
          [
            { key: "x", hits: 4 },
            { key: "y", hits: 5 },
          ],
          { key: "text", hits: "int" },
        ),
      )
      .select(["r.key", "r.hits"])
      .execute();
    expect(rows).toEqual([
      { key: "x", hits: 4 },
      { key: "y", hits: 5 },
    ]);
  });
});
