import { Migration } from "@mikro-orm/migrations";

/**
 * Issue 29: notifications to many go through a work queue. Each job's delivered recipients are marked (a redelivered
 * page skips them), and a DJ's fans are read in pages by fan id.
 */
export class Migration20261203080000_notification_jobs extends Migration {
  override up(): void {
    this.addSql(
      `create table "notification_job_recipient" ("job_id" uuid not null, "user_id" uuid not null, "sent_at" timestamptz not null, primary key ("job_id", "user_id"));`,
    );
    this.addSql(`create index "notification_job_recipient_sent_at_index" on "notification_job_recipient" ("sent_at");`);
    this.addSql(`create index "dj_fan_dj_id_fan_id_index" on "dj_fan" ("dj_id", "fan_id");`);
  }

  override down(): void {
    this.addSql(`drop index if exists "dj_fan_dj_id_fan_id_index";`);
    this.addSql(`drop table if exists "notification_job_recipient" cascade;`);
  }
}
