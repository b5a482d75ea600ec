import type { MigrationObject } from "@mikro-orm/core";
import { Migration } from "@mikro-orm/migrations";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { EchoRecord, echoDefinition } from "../test-support/echo-service.ts";
import { createTestDatabase, type TestDatabase } from "../testing/index.ts";
import { initOrm, migrateUp } from "./orm.ts";

describe("initOrm", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(inject("databaseUrl"));
  });
  afterAll(async () => {
    await db.drop();
  });

  it("creates the service's schema, migrates it once, and keeps its tables there", async () => {
    const definition = echoDefinition();
    const opts = { url: db.url, schema: "echo", entities: definition.entities, migrations: definition.migrations };
    const orm = await initOrm(opts);
    try {
      expect(await migrateUp(orm)).toEqual(["Migration20261122000000"]);
      expect(await migrateUp(orm)).toEqual([]);
      const tables = await orm.em
        .getConnection()
        .execute<{ table_schema: string; table_name: string }[]>(
          `select table_schema, table_name from information_schema.tables where table_schema = 'echo' order by 2`,
        );
      expect(tables.map((t) => t.table_name)).toEqual(["echo_record", "mikro_orm_migrations"]);
      const em = orm.em.fork();
      em.create(EchoRecord, { text: "hello" });
      await em.flush();
      expect(await orm.em.fork().count(EchoRecord)).toBe(1);
    } finally {
      await orm.close();
    }
    // A second start (another replica, a restart) finds everything applied.
    const again = await initOrm(opts);
    try {
      expect(await migrateUp(again)).toEqual([]);
    } finally {
      await again.close();
    }
  });

  it("issue 10: applies migrations by name whatever order they are listed in, and refuses one listed twice", async () => {
    const created: string[] = [];
    const migration = (name: string, table: string): MigrationObject => {
      class Step extends Migration {
        override up(): void {
          created.push(name);
          this.addSql(`create table "${table}" ("id" int primary key)`);
        }
      }
      return { name, class: Step };
    };
    const second = migration("Migration20261122000001_second", "second");
    const first = migration("Migration20261122000000_first", "first");
    const orm = await initOrm({ url: db.url, schema: "ordered", entities: [], migrations: [second, first] });
    try {
      expect(await migrateUp(orm)).toEqual(["Migration20261122000000_first", "Migration20261122000001_second"]);
      expect(created).toEqual(["Migration20261122000000_first", "Migration20261122000001_second"]);
    } finally {
      await orm.close();
    }
    await expect(
      initOrm({ url: db.url, schema: "ordered", entities: [], migrations: [first, second, first] }),
    ).rejects.toThrow("migrations listed twice: Migration20261122000000_first");
  });

  it("refuses schema names that are not plain identifiers", async () => {
    await expect(initOrm({ url: db.url, schema: 'x"; drop', entities: [], migrations: [] })).rejects.toThrow(
      /invalid schema name/,
    );
  });
});

describe("createTestDatabase", () => {
  it("creates a database that drop() removes even with open connections", async () => {
    const db = await createTestDatabase(inject("databaseUrl"));
    const orm = await initOrm({ url: db.url, schema: "probe", entities: [], migrations: [] });
    const [row] = await orm.em.getConnection().execute<{ db: string }[]>("select current_database() as db");
    expect(db.url.endsWith(`/${row?.db}`)).toBe(true);
    await db.drop();
    await orm.close(true);
    const admin = await initOrm({ url: inject("databaseUrl"), schema: "public", entities: [], migrations: [] });
    try {
      const rows = await admin.em
        .getConnection()
        .execute<{ n: string }[]>("select count(*) as n from pg_database where datname = ?", [row?.db]);
      expect(Number(rows[0]?.n)).toBe(0);
    } finally {
      await admin.close();
    }
  });
});
