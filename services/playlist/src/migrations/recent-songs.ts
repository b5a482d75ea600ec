import type { MigrationObject } from "@mikro-orm/core";
import { Migration20261124160200_recent_songs_tables } from "./20261124160200-recent-songs-tables.ts";

/** Migrations of the recent-songs area; the kit applies the service's migrations by name (timestamp). */
export const recentSongMigrations: MigrationObject[] = [
  { name: "Migration20261124160200_recent_songs_tables", class: Migration20261124160200_recent_songs_tables },
];
