import type { MigrationObject } from "@mikro-orm/core";
import { outboxMigration, processedEventsMigration } from "@tt/kit";
import { Migration20261124160000_merch_tables } from "./20261124160000-merch-tables.ts";
import { Migration20261124200000_avatar_purchase_keys } from "./20261124200000-avatar-purchase-keys.ts";

/** Every migration of the merch service; the kit applies them by the timestamp their names start with. */
export const migrationsList: MigrationObject[] = [
  { name: "Migration20261124160000_merch_tables", class: Migration20261124160000_merch_tables },
  { name: "Migration20261124200000_avatar_purchase_keys", class: Migration20261124200000_avatar_purchase_keys },
  outboxMigration("merch"),
  // The payment service's ProductPurchased is consumed exactly once.
  processedEventsMigration("merch"),
];
