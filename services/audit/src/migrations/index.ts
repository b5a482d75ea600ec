import type { MigrationObject } from "@mikro-orm/core";
import { processedEventsMigration } from "@tt/kit";
import { Migration20261124180000_audit_tables } from "./20261124180000-audit-tables.ts";

/** Every migration of the audit service; the kit applies them by the timestamp their names start with. */
export const migrationsList: MigrationObject[] = [
  { name: "Migration20261124180000_audit_tables", class: Migration20261124180000_audit_tables },
  processedEventsMigration("audit"),
];
