// The kit applies the playlist service's migrations in one global order, by name, whatever area lists them: a
// database migrated by an older release (the first N by name) and upgraded must end with the same columns,
// indexes and constraints as a fresh one (docs/new-service.md §4).
import type { MigrationObject } from "@mikro-orm/core";
import { initOrm, migrateUp } from "@tt/kit";
import { createTestDatabase, schemaSnapshot, type SchemaSnapshot, type TestDatabase } from "@tt/kit/testing";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { migrationsList } from "./index.ts";

const databases: TestDatabase[] = [];

async function database(): Promise<TestDatabase> {
  const db = await createTestDatabase(inject("databaseUrl"));
  databases.push(db);
  return db;
}

async function migrate(db: TestDatabase, migrations: MigrationObject[]): Promise<string[]> {
  const orm = await initOrm({ url: db.url, schema: "playlist", entities: [], migrations });
  try {
    return await migrateUp(orm);
  } finally {
    await orm.close(true);
  }
}

const byName = [...migrationsList].sort((a, b) => (a.name < b.name ? -1 : 1));
let fresh: SchemaSnapshot;

beforeAll(async () => {
  const db = await database();
  expect(await migrate(db, migrationsList)).toEqual(byName.map((m) => m.name));
  fresh = await schemaSnapshot(db.url, "playlist");
});

afterAll(async () => {
  for (const db of databases) await db.drop();
});

describe("playlist service migrations in one global order", () => {
  it("a fresh database has the areas' tables, indexes and foreign keys", () => {
    expect(fresh.columns.length).toBeGreaterThan(40);
    expect(fresh.constraints.some((c) => c.includes("FOREIGN KEY"))).toBe(true);
  });

  it("a database migrated with an older list (the first N by name) and upgraded ends like a fresh one", async () => {
    for (let n = 1; n < byName.length; n++) {
      const db = await database();
      expect(await migrate(db, byName.slice(0, n))).toEqual(byName.slice(0, n).map((m) => m.name));
      expect(await migrate(db, migrationsList)).toEqual(byName.slice(n).map((m) => m.name));
      expect(await schemaSnapshot(db.url, "playlist"), `upgraded after the first ${n}`).toEqual(fresh);
    }
  });
});
