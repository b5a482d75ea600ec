import type { MigrationObject } from "@mikro-orm/core";
import { Migration20261122042604_initial } from "./20261122042604-initial.ts";
import { Migration20261122050000_outbox } from "./20261122050000-outbox.ts";
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
  { name: "Migration20261122050000_outbox", class: Migration20261122050000_outbox },
  ...accountMigrations,
  ...contactMigrations,
  ...profileDataMigrations,
  ...moderationMigrations,
  ...providerTokenMigrations,
];
