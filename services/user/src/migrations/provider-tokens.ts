import type { MigrationObject } from "@mikro-orm/core";
import { Migration20261122060100_providerTokensTables } from "./20261122060100-provider-tokens-tables.ts";

/** Migrations of the provider-tokens area; the kit applies the service's migrations by name (timestamp). */
export const providerTokenMigrations: MigrationObject[] = [
  { name: "Migration20261122060100_providerTokensTables", class: Migration20261122060100_providerTokensTables },
];
