// The kit applies a service's migrations in one global order, by name, whatever area lists them (issue 10):
// a fresh database and one that was migrated by an older release and upgraded must end with the same schema.
// The user service's real migrations, on real PostgreSQL; a schema is compared by its columns, indexes and
// constraints.
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

/** Migrates `db` with `migrations` as a release listing them would, and returns the names applied. */
async function migrate(db: TestDatabase, migrations: MigrationObject[]): Promise<string[]> {
  const orm = await initOrm({ url: db.url, schema: "user", entities: [], migrations });
  try {
    return await migrateUp(orm);
  } finally {
    await orm.close(true);
  }
}

// Every name is Migration<yyyymmddhhmmss>_…, so sorting the names sorts by timestamp.
const byName = [...migrationsList].sort((a, b) => (a.name < b.name ? -1 : 1));

let fresh: SchemaSnapshot;

beforeAll(async () => {
  const db = await database();
  expect(await migrate(db, migrationsList)).toEqual(byName.map((m) => m.name));
  fresh = await schemaSnapshot(db.url, "user");
});

afterAll(async () => {
  for (const db of databases) await db.drop();
});

describe("user service migrations in one global order", () => {
  it("issue 10: a fresh database applies them by name, not in the order the areas list them", () => {
    expect(byName.map((m) => m.name)).not.toEqual(migrationsList.map((m) => m.name));
    expect(fresh.columns.length).toBeGreaterThan(50);
    expect(fresh.indexes.length).toBeGreaterThan(10);
    expect(fresh.constraints.some((c) => c.includes("FOREIGN KEY"))).toBe(true);
  });

  it("issue 10: a database migrated with an older list (the first N by name) and upgraded ends like a fresh one", async () => {
    for (let n = 1; n < byName.length; n++) {
      const db = await database();
      expect(await migrate(db, byName.slice(0, n))).toEqual(byName.slice(0, n).map((m) => m.name));
      expect(await migrate(db, migrationsList)).toEqual(byName.slice(n).map((m) => m.name));
      expect(await schemaSnapshot(db.url, "user"), `upgraded after the first ${n}`).toEqual(fresh);
    }
  });

  it("issue 10: a database that ran them in the areas' order, one release at a time, ends like a fresh one", async () => {
    const db = await database();
    for (let n = 1; n <= migrationsList.length; n++) {
      // Each release adds the next migration of the old listing; it is the only one pending.
      expect(await migrate(db, migrationsList.slice(0, n))).toEqual([migrationsList[n - 1]!.name]);
    }
    expect(await migrate(db, migrationsList)).toEqual([]);
    expect(await schemaSnapshot(db.url, "user")).toEqual(fresh);
  });
});
