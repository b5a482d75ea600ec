import { Migration } from "@mikro-orm/migrations";

/** The audit service's tables: the moderation log and the append-only analytics events. */
export class Migration20261124180000_audit_tables extends Migration {
  override up(): void {
    this.addSql(
      'create table "moderation_action" ("id" uuid not null, "action_type" varchar(20) not null, "user_uuid" uuid not null, "moderator_uuid" uuid null, "room_uuid" uuid null, "role" varchar(32) null, "previous_role" varchar(32) null, "reason" varchar(500) null, "ends_at" timestamptz null, "source_event_id" varchar(255) null, "source_subject" varchar(255) null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"))',
    );
    this.addSql('create index "moderation_action_action_type_index" on "moderation_action" ("action_type")');
    this.addSql(
      'alter table "moderation_action" add constraint "moderation_action_source_event_id_unique" unique ("source_event_id")',
    );
    this.addSql(
      'create index "moderation_action_user_uuid_created_at_index" on "moderation_action" ("user_uuid", "created_at")',
    );
    this.addSql('create index "moderation_action_created_at_index" on "moderation_action" ("created_at")');
    this.addSql(
      'create table "analytics_event" ("id" uuid not null, "topic" varchar(40) not null, "record" jsonb not null, "platform" varchar(10) not null, "is_discord" boolean not null, "is_logged_in" boolean not null, "user_uuid" uuid null, "created_at" timestamptz not null, primary key ("id"))',
    );
    this.addSql('create index "analytics_event_topic_created_at_index" on "analytics_event" ("topic", "created_at")');
    this.addSql('create index "analytics_event_created_at_index" on "analytics_event" ("created_at")');
  }
}
