import type { MigrationObject } from "@mikro-orm/core";
import { Migration20261122060000_profile_data_tables } from "./20261122060000-profile-data-tables.ts";

/** Migrations of the profile-data area; the kit applies the service's migrations by name (timestamp). */
export const profileDataMigrations: MigrationObject[] = [
  { name: "Migration20261122060000_profile_data_tables", class: Migration20261122060000_profile_data_tables },
];
