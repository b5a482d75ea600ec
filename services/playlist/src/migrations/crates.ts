import type { MigrationObject } from "@mikro-orm/core";
import { Migration20261124160100_crate_tables } from "./20261124160100-crate-tables.ts";

/** Migrations of the crates area; the kit applies the service's migrations by name (timestamp). */
export const crateMigrations: MigrationObject[] = [
  { name: "Migration20261124160100_crate_tables", class: Migration20261124160100_crate_tables },
];
