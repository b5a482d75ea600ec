import type { MigrationObject } from "@mikro-orm/core";
import { outboxMigration, processedEventsMigration } from "@tt/kit";
import { Migration20261124160000_merch_tables } from "./20261124160000-merch-tables.ts";

/** Every migration of the merch service; the kit applies them by the timestamp their names start with. */
export const migrationsList: MigrationObject[] = [
  { name: "Migration20261124160000_merch_tables", class: Migration20261124160000_merch_tables },
  outboxMigration("merch"),
  // The payment service's ProductPurchased is consumed exactly once.
  processedEventsMigration("merch"),
];
