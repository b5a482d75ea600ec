import type { MigrationObject } from "@mikro-orm/core";
import { Migration20261122060200_moderation_tables } from "./20261122060200-moderation-tables.ts";

/** Migrations of the moderation area; the kit applies the service's migrations by name (timestamp). */
export const moderationMigrations: MigrationObject[] = [
  { name: "Migration20261122060200_moderation_tables", class: Migration20261122060200_moderation_tables },
];
