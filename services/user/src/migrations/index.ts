import type { MigrationObject } from "@mikro-orm/core";
import { outboxMigration } from "@tt/kit";
import { Migration20261122042604_initial } from "./20261122042604-initial.ts";
import { accountMigrations } from "./accounts.ts";
import { contactMigrations } from "./contact.ts";
import { moderationMigrations } from "./moderation.ts";
import { profileDataMigrations } from "./profile-data.ts";
import { providerTokenMigrations } from "./provider-tokens.ts";

/**
 * Applied in this order. Each area keeps its own list (one file each) so areas can grow in parallel; an
 * area's migrations only touch its own tables. migrations.test.ts checks that the result matches the entities.
 */
export const migrationsList: MigrationObject[] = [
  { name: "Migration20261122042604_initial", class: Migration20261122042604_initial },
  // The kit's outbox table, in this schema (the name it was first applied under: existing databases keep it).
  outboxMigration("user"),
  ...accountMigrations,
  ...contactMigrations,
  ...profileDataMigrations,
  ...moderationMigrations,
  ...providerTokenMigrations,
];
