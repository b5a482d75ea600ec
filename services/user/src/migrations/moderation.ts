import type { MigrationObject } from "@mikro-orm/core";

/** Migrations of the moderation area, in order; appended to the service's list after the initial one. */
export const moderationMigrations: MigrationObject[] = [];
