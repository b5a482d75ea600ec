import type { MigrationObject } from "@mikro-orm/core";
import { Migration20261124160000_rooms } from "./20261124160000-rooms.ts";

/** The rooms area's migrations (rooms, role grants, visits). */
export const roomMigrations: MigrationObject[] = [
  { name: "Migration20261124160000_rooms", class: Migration20261124160000_rooms },
];
