import { Migration } from "@mikro-orm/migrations";

/**
 * Issue 29: an admin's web push to every subscription goes through the notification work queue. Its delivered
 * subscriptions are marked (a redelivered page skips them), as a job's recipient users are.
 */
export class Migration20261203110000_notification_job_subscriptions extends Migration {
  override up(): void {
    this.addSql(
      `create table "notification_job_subscription" ("job_id" uuid not null, "subscription_id" uuid not null, "sent_at" timestamptz not null, primary key ("job_id", "subscription_id"));`,
    );
    this.addSql(
      `create index "notification_job_subscription_sent_at_index" on "notification_job_subscription" ("sent_at");`,
    );
  }

  override down(): void {
    this.addSql(`drop table if exists "notification_job_subscription" cascade;`);
  }
}
