import type { MigrationObject } from "@mikro-orm/core";
import { Migration } from "@mikro-orm/migrations";
import { processedEventsMigration } from "@tt/kit";

/** Issue 16: the payment service's subscription level on the user. */
export class Migration20261124173100_subscription_level extends Migration {
  override up(): void {
    this.addSql(`alter table "users" add column "subscription_level" varchar(50) not null default ''`);
  }
}

export const subscriptionMigrations: MigrationObject[] = [
  // The consumer's marks (SubscriptionChanged is handled once per event).
  processedEventsMigration("user"),
  { name: "Migration20261124173100_subscription_level", class: Migration20261124173100_subscription_level },
];
