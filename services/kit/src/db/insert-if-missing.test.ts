// Issue 23: concurrent "find, then insert" of a row keyed by a natural key, and what a unique violation that
// still escapes a handler becomes. Against the real PostgreSQL.
import { Code } from "@connectrpc/connect";
import { defineEntity, p } from "@mikro-orm/core";
import { Migration } from "@mikro-orm/migrations";
import type { MikroORM } from "@mikro-orm/postgresql";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { toConnectError } from "../errors.ts";
import { createTestDatabase, type TestDatabase } from "../testing/index.ts";
import { findOrInsert, insertIfMissing } from "./insert-if-missing.ts";
import { initOrm, migrateUp } from "./orm.ts";

const SettingSchema = defineEntity({
  name: "Setting",
  tableName: "setting",
  properties: {
    owner: p.string().primary(),
    value: p.string(),
  },
});
class Setting extends SettingSchema.class {}
SettingSchema.setClass(Setting);

class Migration20261202000000 extends Migration {
  override up(): void {
    this.addSql(`create table "setting" ("owner" varchar(255) primary key, "value" varchar(255) not null)`);
  }
}

let db: TestDatabase;
let orm: MikroORM;

beforeAll(async () => {
  db = await createTestDatabase(inject("databaseUrl"));
  orm = await initOrm({
    url: db.url,
    schema: "races",
    entities: [Setting],
    migrations: [{ name: "Migration20261202000000", class: Migration20261202000000 }],
    pool: { max: 10 },
  });
  await migrateUp(orm);
});

afterAll(async () => {
  await orm?.close();
  await db?.drop();
});

describe("insertIfMissing and findOrInsert (issue 23)", () => {
  it("20 concurrent findOrInsert of one key all succeed and leave one row", async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        findOrInsert(orm.em.fork(), Setting, { owner: "a" }, { owner: "a", value: `v${i}` }),
      ),
    );
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    const values = new Set(results.map((r) => (r as PromiseFulfilledResult<Setting>).value.value));
    expect(values.size).toBe(1);
    expect(await orm.em.fork().count(Setting, { owner: "a" })).toBe(1);
  });

  it("insertIfMissing says whether this call made the row", async () => {
    const em = orm.em.fork();
    expect(await insertIfMissing(em, Setting, { owner: "b", value: "first" })).toBe(true);
    expect(await insertIfMissing(em, Setting, { owner: "b", value: "second" })).toBe(false);
    expect((await em.findOneOrFail(Setting, { owner: "b" })).value).toBe("first");
  });
});

describe("a unique violation that escapes a handler (issue 23)", () => {
  it("becomes AlreadyExists (409), not Internal (500), from the ORM's flush", async () => {
    const em = orm.em.fork();
    em.create(Setting, { owner: "c", value: "x" });
    await em.flush();
    const again = orm.em.fork();
    again.create(Setting, { owner: "c", value: "y" });
    const err = await again.flush().then(
      () => undefined,
      (e: unknown) => e,
    );
    const mapped = toConnectError(err);
    expect(mapped.code).toBe(Code.AlreadyExists);
    expect(mapped.rawMessage).toBe("it already exists (made at the same time by another call?)");
    expect(mapped.cause).toBe(err);
  });

  it("becomes AlreadyExists from a handler's own SQL on a pg pool", async () => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const err = await client.query(`insert into races.setting (owner, value) values ('c', 'z')`).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(toConnectError(err).code).toBe(Code.AlreadyExists);
    } finally {
      await client.end();
    }
  });
});
