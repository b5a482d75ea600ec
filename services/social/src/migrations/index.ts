import type { MigrationObject } from "@mikro-orm/core";
import { outboxMigration, processedEventsMigration, throttleMigration } from "@tt/kit";
import { chatMigrations } from "../modules/chat/migrations.ts";
import { presenceMigrations } from "../modules/presence/migrations.ts";

/** Every migration of the social service; the kit applies them by the timestamp their names start with. */
export const migrationsList: MigrationObject[] = [
  outboxMigration("social"),
  processedEventsMigration("social"),
  throttleMigration("social"),
  ...presenceMigrations,
  ...chatMigrations,
];
