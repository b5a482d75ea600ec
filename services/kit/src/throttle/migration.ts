import type { MigrationObject } from "@mikro-orm/core";
import { Migration } from "@mikro-orm/migrations";
import { checkSchemaName } from "../db/schema-name.ts";

export const THROTTLE_MIGRATION_NAME = "Migration20261202000000_throttle_window";

/**
 * The throttle table (`ThrottleWindowSchema`) in a service's schema; every service that throttles lists it. The
 * user service had the table first (its contact migration created the same table) and does not list it.
 */
export function throttleMigration(schema: string): MigrationObject {
  checkSchemaName(schema);
  const table = `"${schema}"."throttle_window"`;
  class ThrottleMigration extends Migration {
    override name = THROTTLE_MIGRATION_NAME;

    override up(): void {
      this.addSql(
        `create table ${table} ("key" varchar(400) not null, "window_start" timestamptz not null, "hits" int not null, primary key ("key"));`,
      );
    }

    override down(): void {
      this.addSql(`drop table if exists ${table} cascade;`);
    }
  }
  return { name: THROTTLE_MIGRATION_NAME, class: ThrottleMigration };
}
