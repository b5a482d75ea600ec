// The kit applies a service's migrations in one global order, by name, whatever area lists them (issue 10):
// a fresh database and one that was migrated by an older release and upgraded must end with the same schema.
// The user service's real migrations, on real PostgreSQL; a schema is compared by its columns, indexes and
// constraints.
import { migrationOrderCheck, type MigrationOrderCheck, type SchemaSnapshot } from "@tt/kit/testing";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { migrationsList } from "./index.ts";

let order: MigrationOrderCheck;
let fresh: SchemaSnapshot;

beforeAll(async () => {
  order = migrationOrderCheck(inject("databaseUrl"), "user", migrationsList);
  fresh = await order.fresh();
});

afterAll(async () => {
  await order?.drop();
});

describe("user service migrations in one global order", () => {
  it("issue 10: a fresh database applies them by name, not in the order the areas list them", () => {
    expect(order.byName.map((m) => m.name)).not.toEqual(migrationsList.map((m) => m.name));
    expect(fresh.columns.length).toBeGreaterThan(50);
    expect(fresh.indexes.length).toBeGreaterThan(10);
    expect(fresh.constraints.some((c) => c.includes("FOREIGN KEY"))).toBe(true);
  });

  it("issue 10: a database migrated with an older list (the first N by name) and upgraded ends like a fresh one", async () => {
    await order.expectUpgradesEndLike(fresh);
  });

  it("issue 10: a database that ran them in the areas' order, one release at a time, ends like a fresh one", async () => {
    await order.expectReleasesInListOrderEndLike(fresh);
  });
});
