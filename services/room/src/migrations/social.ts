import type { MigrationObject } from "@mikro-orm/core";
import { Migration20261124170000_social_tables } from "./20261124170000-social-tables.ts";

/** The social part's migrations (communities, events, social graph, devices, contact book, notifications). */
export const socialMigrations: MigrationObject[] = [
  { name: "Migration20261124170000_social_tables", class: Migration20261124170000_social_tables },
];
