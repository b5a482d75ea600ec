import type { MigrationObject } from "@mikro-orm/core";
import { outboxMigration, processedEventsMigration } from "@tt/kit";
import { catalogueMigrations } from "./catalogue.ts";
import { crateMigrations } from "./crates.ts";
import { importMigrations } from "./imports.ts";
import { recentSongMigrations } from "./recent-songs.ts";

/**
 * Each area keeps its own list (one file each, one line here) so areas can grow in parallel; an area's migrations
 * only touch its own tables. The kit applies them all in one order, by the timestamp their names start with.
 * migrations.test.ts checks that the result matches the entities.
 */
export const migrationsList: MigrationObject[] = [
  // The kit's outbox (crate events) and processed-events (upload events consumed once) tables.
  outboxMigration("playlist"),
  processedEventsMigration("playlist"),
  ...catalogueMigrations,
  ...crateMigrations,
  ...importMigrations,
  ...recentSongMigrations,
];
