import type { MigrationObject } from "@mikro-orm/core";
import { Migration20261124170000_social_tables } from "./20261124170000-social-tables.ts";
import { Migration20261203000000_notification_read } from "./20261203000000-notification-read.ts";
import { Migration20261203080000_notification_jobs } from "./20261203080000-notification-jobs.ts";
import { Migration20261203110000_notification_job_subscriptions } from "./20261203110000-notification-job-subscriptions.ts";

/** the people part's migrations (communities, events, social graph, devices, contact book, notifications). */
export const peopleMigrations: MigrationObject[] = [
  { name: "Migration20261124170000_social_tables", class: Migration20261124170000_social_tables },
  { name: "Migration20261203000000_notification_read", class: Migration20261203000000_notification_read },
  { name: "Migration20261203080000_notification_jobs", class: Migration20261203080000_notification_jobs },
  {
    name: "Migration20261203110000_notification_job_subscriptions",
    class: Migration20261203110000_notification_job_subscriptions,
  },
];
