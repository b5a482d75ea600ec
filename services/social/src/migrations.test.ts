// The checked-in migrations must produce exactly the schema the entities describe: an entity changed without
// its migration (or a migration that an area forgot to list) fails here, not in production.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { initServiceOrm, migrateUp } from "@tt/kit";
import { createTestDatabase, type TestDatabase } from "@tt/kit/testing";
import type { MikroORM } from "@mikro-orm/postgresql";
import { socialServiceDefinition } from "./index.ts";

let db: TestDatabase;
let orm: MikroORM;

beforeAll(async () => {
  db = await createTestDatabase(inject("databaseUrl"));
  orm = await initServiceOrm(db.url, socialServiceDefinition);
});

afterAll(async () => {
  await orm?.close(true);
  await db?.drop();
});

describe("social service migrations", () => {
  it("bring an empty database to exactly the entities' schema", async () => {
    expect((await migrateUp(orm)).length).toBe(socialServiceDefinition.migrations.length);
    expect(await orm.schema.getUpdateSchemaSQL({ wrap: false })).toBe("");
  });

  it("have unique names", () => {
    const names = socialServiceDefinition.migrations.map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
