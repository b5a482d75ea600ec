// The kit applies the playlist service's migrations in one global order, by name, whatever area lists them: a
// database migrated by an older release (the first N by name) and upgraded must end with the same columns,
// indexes and constraints as a fresh one (docs/new-service.md §4).
import { migrationOrderCheck, type MigrationOrderCheck, type SchemaSnapshot } from "@tt/kit/testing";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { migrationsList } from "./index.ts";

let order: MigrationOrderCheck;
let fresh: SchemaSnapshot;

beforeAll(async () => {
  order = migrationOrderCheck(inject("databaseUrl"), "playlist", migrationsList);
  fresh = await order.fresh();
});

afterAll(async () => {
  await order?.drop();
});

describe("playlist service migrations in one global order", () => {
  it("a fresh database has the areas' tables, indexes and foreign keys", () => {
    expect(fresh.columns.length).toBeGreaterThan(40);
    expect(fresh.constraints.some((c) => c.includes("FOREIGN KEY"))).toBe(true);
  });

  it("a database migrated with an older list (the first N by name) and upgraded ends like a fresh one", async () => {
    await order.expectUpgradesEndLike(fresh);
  });
});
