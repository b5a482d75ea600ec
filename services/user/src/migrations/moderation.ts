import type { MigrationObject } from "@mikro-orm/core";
import { Migration20261122060200_moderation_tables } from "./20261122060200-moderation-tables.ts";

/** Migrations of the moderation area, in order; appended to the service's list after the initial one. */
export const moderationMigrations: MigrationObject[] = [
  { name: "Migration20261122060200_moderation_tables", class: Migration20261122060200_moderation_tables },
];
