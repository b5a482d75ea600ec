import type { MigrationObject } from "@mikro-orm/core";
import { Migration20261124160000_rooms } from "./20261124160000-rooms.ts";
import { Migration20261124163000_room_type_index } from "./20261124163000-room-type-index.ts";
import { Migration20261202003000_room_admission } from "./20261202003000-room-admission.ts";
import { Migration20261203010000_room_updated_index } from "./20261203010000-room-updated-index.ts";

/** The rooms area's migrations (rooms, role grants, visits). */
export const roomMigrations: MigrationObject[] = [
  { name: "Migration20261124160000_rooms", class: Migration20261124160000_rooms },
  { name: "Migration20261124163000_room_type_index", class: Migration20261124163000_room_type_index },
  { name: "Migration20261202003000_room_admission", class: Migration20261202003000_room_admission },
  { name: "Migration20261203010000_room_updated_index", class: Migration20261203010000_room_updated_index },
];
