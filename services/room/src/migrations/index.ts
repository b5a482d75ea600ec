import type { MigrationObject } from "@mikro-orm/core";
import { outboxMigration, processedEventsMigration, throttleMigration } from "@tt/kit";
import { roomMigrations } from "./rooms.ts";
import { peopleMigrations } from "./people.ts";

/**
 * Each area keeps its own list (one file each) so areas can grow in parallel; an area's migrations only touch its
 * own tables. The kit applies them all in one order, by the timestamp their names start with (a new migration
 * needs a later timestamp than every one already released). migrations.test.ts checks the result matches the
 * entities.
 */
export const migrationsList: MigrationObject[] = [
  outboxMigration("room"),
  processedEventsMigration("room"),
  throttleMigration("room"),
  ...roomMigrations,
  ...peopleMigrations,
];
