import type { MigrationObject } from "@mikro-orm/core";

/** The rooms area's migrations (rooms, role grants, visits). */
export const roomMigrations: MigrationObject[] = [];
