import type { MigrationObject } from "@mikro-orm/core";
import { outboxMigration } from "@tt/kit";
import { Migration20261122042604_initial } from "./20261122042604-initial.ts";
import { accountMigrations } from "./accounts.ts";
import { contactMigrations } from "./contact.ts";
import { moderationMigrations } from "./moderation.ts";
import { profileDataMigrations } from "./profile-data.ts";
import { providerTokenMigrations } from "./provider-tokens.ts";
import { subscriptionMigrations } from "./subscription.ts";

/**
 * Each area keeps its own list (one file each) so areas can grow in parallel; an area's migrations only touch
 * its own tables. The kit applies them all in one order, by the timestamp their names start with, whatever
 * order they are listed in here (a new migration needs a later timestamp than every one already released).
 * migrations.test.ts checks that the result matches the entities; migrations/order.test.ts that a fresh and an
 * upgraded database end the same.
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
  ...subscriptionMigrations,
];
