import type { MigrationObject } from "@mikro-orm/core";
import { Migration20261124160000_catalogue_tables } from "./20261124160000-catalogue-tables.ts";

/** Migrations of the catalogue area; the kit applies the service's migrations by name (timestamp). */
export const catalogueMigrations: MigrationObject[] = [
  { name: "Migration20261124160000_catalogue_tables", class: Migration20261124160000_catalogue_tables },
];
