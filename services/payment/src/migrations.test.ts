// The checked-in migrations must produce exactly the schema the entities describe: an entity changed without
// its migration (or a migration that an area forgot to list) fails here, not in production.
import { describe, inject, it } from "vitest";
import { expectMigrationsMatchEntities } from "@tt/kit/testing";
import { paymentServiceDefinition } from "./index.ts";

describe("payment service migrations", () => {
  it("have unique names and bring an empty database to exactly the entities' schema", async () => {
    await expectMigrationsMatchEntities(inject("databaseUrl"), paymentServiceDefinition);
  });
});
