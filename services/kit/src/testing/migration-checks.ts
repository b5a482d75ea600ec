// The checks a service's migrations pass, one body for every service's migration tests, on real PostgreSQL: the
// checked-in migrations bring an empty database to exactly the schema the entities describe (an entity changed
// without its migration, or a migration an area forgot to list, fails there, not in production), and the kit applies
// them in one global order, by name, whatever area lists them (issue 10), so a database an older release migrated
// ends, once upgraded, with the same columns, indexes and constraints as a fresh one (docs/new-service.md §4).
import type { MigrationObject } from "@mikro-orm/core";
import { expect } from "vitest";
import { initOrm, initServiceOrm, migrateUp } from "../db/orm.ts";
import type { ServiceDefinition } from "../service.ts";
import { schemaSnapshot, type SchemaSnapshot } from "./schema-snapshot.ts";
import { createTestDatabase, type TestDatabase } from "./test-database.ts";

/**
 * Expects the definition's migrations to have unique names, and, applied to a new database on the server of
 * `databaseUrl` (dropped afterwards), to apply every one and leave nothing between the schema and the entities.
 */
export async function expectMigrationsMatchEntities(
  databaseUrl: string,
  definition: Pick<ServiceDefinition, "name" | "entities" | "migrations">,
): Promise<void> {
  const names = definition.migrations.map((m) => m.name);
  expect(
    names.filter((name, i) => names.indexOf(name) !== i),
    "migrations listed twice",
  ).toEqual([]);
  const db = await createTestDatabase(databaseUrl);
  try {
    const orm = await initServiceOrm(db.url, definition);
    try {
      expect(await migrateUp(orm)).toHaveLength(definition.migrations.length);
      expect(await orm.schema.getUpdateSchemaSQL({ wrap: false })).toBe("");
    } finally {
      await orm.close(true);
    }
  } finally {
    await db.drop();
  }
}

/** Issue 10's checks of one service's migrations, each on databases of its own; `drop()` them after the suite. */
export interface MigrationOrderCheck {
  /** The migrations in the order the kit applies them: by name, which is by their leading timestamp. */
  readonly byName: readonly MigrationObject[];
  /** A new database migrated with the whole list: expects them applied by name; the schema it ends with. */
  fresh(): Promise<SchemaSnapshot>;
  /** For every n, a database migrated with the first n by name (an older release) and then upgraded ends as `fresh`. */
  expectUpgradesEndLike(fresh: SchemaSnapshot): Promise<void>;
  /** A database migrated one release at a time, each adding the next migration of the list as it is, ends as `fresh`. */
  expectReleasesInListOrderEndLike(fresh: SchemaSnapshot): Promise<void>;
  /** Drops every database the checks made. */
  drop(): Promise<void>;
}

/** The order checks of `migrations` (a service's list, in its areas' order) in `schema`, on `databaseUrl`'s server. */
export function migrationOrderCheck(
  databaseUrl: string,
  schema: string,
  migrations: readonly MigrationObject[],
): MigrationOrderCheck {
  const databases: TestDatabase[] = [];
  const names = (list: readonly MigrationObject[]) => list.map((m) => m.name);
  const byName = [...migrations].sort((a, b) => (a.name < b.name ? -1 : 1));

  async function database(): Promise<TestDatabase> {
    const db = await createTestDatabase(databaseUrl);
    databases.push(db);
    return db;
  }

  /** Migrates `db` with `list` as a release listing them would, and returns the names applied. */
  async function migrate(db: TestDatabase, list: readonly MigrationObject[]): Promise<string[]> {
    const orm = await initOrm({ url: db.url, schema, entities: [], migrations: [...list] });
    try {
      return await migrateUp(orm);
    } finally {
      await orm.close(true);
    }
  }

  return {
    byName,
    async fresh() {
      const db = await database();
      expect(await migrate(db, migrations)).toEqual(names(byName));
      return schemaSnapshot(db.url, schema);
    },
    async expectUpgradesEndLike(fresh) {
      for (let n = 1; n < byName.length; n++) {
        const db = await database();
        expect(await migrate(db, byName.slice(0, n))).toEqual(names(byName.slice(0, n)));
        expect(await migrate(db, migrations)).toEqual(names(byName.slice(n)));
        expect(await schemaSnapshot(db.url, schema), `upgraded after the first ${n}`).toEqual(fresh);
      }
    },
    async expectReleasesInListOrderEndLike(fresh) {
      const db = await database();
      for (let n = 1; n <= migrations.length; n++) {
        // Each release adds the next migration of the list; it is the only one pending.
        expect(await migrate(db, migrations.slice(0, n))).toEqual([migrations[n - 1]!.name]);
      }
      expect(await migrate(db, migrations)).toEqual([]);
      expect(await schemaSnapshot(db.url, schema)).toEqual(fresh);
    },
    async drop() {
      for (const db of databases.splice(0)) await db.drop();
    },
  };
}
