import type { MigrationObject } from "@mikro-orm/core";
import { Migration20261122060000_accounts_tables } from "./20261122060000-accounts-tables.ts";

/** Migrations of the accounts area; the kit applies the service's migrations by name (timestamp). */
export const accountMigrations: MigrationObject[] = [
  { name: "Migration20261122060000_accounts_tables", class: Migration20261122060000_accounts_tables },
];
