import type { MigrationObject } from "@mikro-orm/core";

/** Migrations of the profile-data area, in order; appended to the service's list after the initial one. */
export const profileDataMigrations: MigrationObject[] = [];
