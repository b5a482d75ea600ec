import type { MigrationObject } from "@mikro-orm/core";
import { Migration20261122060000_contact_tables } from "./20261122060000-contact-tables.ts";
import { Migration20261124130000_primary_email_rows } from "./20261124130000-primary-email-rows.ts";

/** Migrations of the contact area; the kit applies the service's migrations by name (timestamp). */
export const contactMigrations: MigrationObject[] = [
  { name: "Migration20261122060000_contact_tables", class: Migration20261122060000_contact_tables },
  { name: "Migration20261124130000_primary_email_rows", class: Migration20261124130000_primary_email_rows },
];
