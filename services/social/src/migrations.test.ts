// The checked-in migrations must produce exactly the schema the entities describe: an entity changed without
// its migration (or a migration that an area forgot to list) fails here, not in production.
import { describe, inject, it } from "vitest";
import { expectMigrationsMatchEntities } from "@tt/kit/testing";
import { socialServiceDefinition } from "./index.ts";

describe("social service migrations", () => {
  it("have unique names and bring an empty database to exactly the entities' schema", async () => {
    await expectMigrationsMatchEntities(inject("databaseUrl"), socialServiceDefinition);
  });
});
