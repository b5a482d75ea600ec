import type { MigrationObject } from "@mikro-orm/core";

/** Migrations of the contact area, in order; appended to the service's list after the initial one. */
export const contactMigrations: MigrationObject[] = [];
