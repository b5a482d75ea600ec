import type { MigrationObject } from "@mikro-orm/core";
import { outboxMigration } from "@tt/kit";
import { Migration20261124173000_payment_tables } from "./20261124173000-payment-tables.ts";

/** Every migration of the payment service; the kit applies them by the timestamp their names start with. */
export const migrationsList: MigrationObject[] = [
  { name: "Migration20261124173000_payment_tables", class: Migration20261124173000_payment_tables },
  outboxMigration("payment"),
];
