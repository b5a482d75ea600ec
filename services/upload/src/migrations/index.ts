import type { MigrationObject } from "@mikro-orm/core";
import { outboxMigration } from "@tt/kit";
import { Migration20261124160000_songs } from "./20261124160000-songs.ts";

/** Applied by the kit in one order, by the timestamp each name starts with (docs/new-service.md §4). */
export const migrationsList: MigrationObject[] = [
  outboxMigration("upload"),
  { name: "Migration20261124160000_songs", class: Migration20261124160000_songs },
];
