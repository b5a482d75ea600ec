import type { MigrationObject } from "@mikro-orm/core";

/** Every migration of the social service; the kit applies them by the timestamp their names start with. */
export const migrationsList: MigrationObject[] = [];
