import type { MigrationObject } from "@mikro-orm/core";
import { Migration20261124163000_import_jobs } from "./20261124163000-import-jobs.ts";

/** Migrations of the imports area. */
export const importMigrations: MigrationObject[] = [
  { name: "Migration20261124163000_import_jobs", class: Migration20261124163000_import_jobs },
];
