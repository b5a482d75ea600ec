// The migration checks on the kit's example service: they pass for its migrations and fail, naming the problem,
// when a migration is missing or listed twice.
import { describe, expect, inject, it } from "vitest";
import { exampleServiceDefinition } from "../test-support/example-service.ts";
import { expectMigrationsMatchEntities, migrationOrderCheck } from "./migration-checks.ts";

describe("expectMigrationsMatchEntities", () => {
  it("passes for migrations that make the entities' schema", async () => {
    await expectMigrationsMatchEntities(inject("databaseUrl"), exampleServiceDefinition);
  });

  it("fails when an entity's table has no migration", async () => {
    const [notes, ...rest] = exampleServiceDefinition.migrations;
    expect(notes!.name).toBe("Migration20261124000000");
    await expect(
      expectMigrationsMatchEntities(inject("databaseUrl"), { ...exampleServiceDefinition, migrations: rest }),
    ).rejects.toThrow(/create table/);
  });

  it("fails when a migration is listed twice, naming it", async () => {
    const { migrations } = exampleServiceDefinition;
    await expect(
      expectMigrationsMatchEntities(inject("databaseUrl"), {
        ...exampleServiceDefinition,
        migrations: [...migrations, migrations[0]!],
      }),
    ).rejects.toThrow(/migrations listed twice[\s\S]*Migration20261124000000/);
  });
});

describe("migrationOrderCheck", () => {
  it("orders by name and finds upgraded and release-by-release databases like a fresh one", async () => {
    const check = migrationOrderCheck(inject("databaseUrl"), "example", exampleServiceDefinition.migrations);
    try {
      const fresh = await check.fresh();
      expect(fresh.columns.some((c) => c.startsWith("note."))).toBe(true);
      await check.expectUpgradesEndLike(fresh);
      await check.expectReleasesInListOrderEndLike(fresh);
    } finally {
      await check.drop();
    }
  });
});
