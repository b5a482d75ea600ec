import { Migration } from "@mikro-orm/migrations";

/** the people part's tables: communities, events, the social graph, devices, the contact book, notifications. */
export class Migration20261124170000_social_tables extends Migration {
  override name = "Migration20261124170000_social_tables";

  override up(): void | Promise<void> {
    this.addSql(
      `create table "blocked_user" ("id" uuid not null, "user_id" uuid not null, "blocked_user_id" uuid not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "blocked_user_blocked_user_id_index" on "blocked_user" ("blocked_user_id");`);
    this.addSql(
      `alter table "blocked_user" add constraint "blocked_user_user_id_blocked_user_id_unique" unique ("user_id", "blocked_user_id");`,
    );
    this.addSql(
      `create table "community" ("id" uuid not null, "name" varchar(100) not null, "slug" varchar(100) not null, "description" text not null default '', "image_url" varchar(2048) null, "owner_id" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`alter table "community" add constraint "community_slug_unique" unique ("slug");`);
    this.addSql(`create index "community_owner_id_index" on "community" ("owner_id");`);
    this.addSql(
      `create table "community_member" ("id" uuid not null, "community_id" uuid not null, "user_id" uuid not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "community_member_user_id_index" on "community_member" ("user_id");`);
    this.addSql(
      `alter table "community_member" add constraint "community_member_community_id_user_id_unique" unique ("community_id", "user_id");`,
    );
    this.addSql(
      `create table "community_room" ("id" uuid not null, "community_id" uuid not null, "room_id" uuid not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "community_room_room_id_index" on "community_room" ("room_id");`);
    this.addSql(
      `alter table "community_room" add constraint "community_room_community_id_room_id_unique" unique ("community_id", "room_id");`,
    );
    this.addSql(
      `create table "contact_book_entry" ("id" uuid not null, "user_id" uuid not null, "kind" varchar(8) not null, "hash" varchar(64) not null, "matched_user_id" uuid null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "contact_book_entry_matched_user_id_index" on "contact_book_entry" ("matched_user_id");`);
    this.addSql(
      `alter table "contact_book_entry" add constraint "contact_book_entry_user_id_hash_unique" unique ("user_id", "hash");`,
    );
    this.addSql(
      `create table "device" ("id" uuid not null, "user_id" uuid not null, "token" varchar(512) not null, "platform" varchar(16) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "device_user_id_index" on "device" ("user_id");`);
    this.addSql(`alter table "device" add constraint "device_token_unique" unique ("token");`);
    this.addSql(
      `create table "dj_fan" ("id" uuid not null, "fan_id" uuid not null, "dj_id" uuid not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "dj_fan_dj_id_created_at_index" on "dj_fan" ("dj_id", "created_at");`);
    this.addSql(`create index "dj_fan_fan_id_created_at_index" on "dj_fan" ("fan_id", "created_at");`);
    this.addSql(`alter table "dj_fan" add constraint "dj_fan_fan_id_dj_id_unique" unique ("fan_id", "dj_id");`);
    this.addSql(
      `create table "dj_notification_state" ("dj_id" uuid not null, "notified_at" timestamptz not null, primary key ("dj_id"));`,
    );
    this.addSql(
      `create table "friend_invitation" ("id" uuid not null, "from_user_id" uuid not null, "to_user_id" uuid not null, "status" varchar(16) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "friend_invitation_from_user_id_index" on "friend_invitation" ("from_user_id");`);
    this.addSql(`create index "friend_invitation_to_user_id_index" on "friend_invitation" ("to_user_id");`);
    this.addSql(
      `create table "friendship" ("id" uuid not null, "user_id" uuid not null, "friend_id" uuid not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "friendship_friend_id_index" on "friendship" ("friend_id");`);
    this.addSql(
      `alter table "friendship" add constraint "friendship_user_id_friend_id_unique" unique ("user_id", "friend_id");`,
    );
    this.addSql(
      `create table "notification" ("id" uuid not null, "user_id" uuid not null, "kind" varchar(16) not null, "title" varchar(200) not null default '', "body" text not null default '', "room_id" uuid null, "sender_id" varchar(64) null, "data" jsonb null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "notification_user_id_kind_created_at_index" on "notification" ("user_id", "kind", "created_at");`,
    );
    this.addSql(
      `create table "room_event" ("id" uuid not null, "slug" varchar(120) not null, "name" varchar(120) not null, "description" text not null default '', "room_id" uuid null, "starts_at" timestamptz not null, "ends_at" timestamptz not null, "image_url" varchar(2048) null, "created_by" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`alter table "room_event" add constraint "room_event_slug_unique" unique ("slug");`);
    this.addSql(`create index "room_event_room_id_index" on "room_event" ("room_id");`);
    this.addSql(`create index "room_event_ends_at_index" on "room_event" ("ends_at");`);
    this.addSql(`create index "room_event_created_by_index" on "room_event" ("created_by");`);
    this.addSql(`create index "room_event_starts_at_id_index" on "room_event" ("starts_at", "id");`);
    this.addSql(
      `create table "social_secret" ("name" varchar(64) not null, "value" text not null, "created_at" timestamptz not null, primary key ("name"));`,
    );
    this.addSql(
      `create table "web_push_subscription" ("id" uuid not null, "user_id" uuid not null, "endpoint" varchar(1024) not null, "p256dh" varchar(200) not null, "auth" varchar(100) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "web_push_subscription_user_id_index" on "web_push_subscription" ("user_id");`);
    this.addSql(
      `alter table "web_push_subscription" add constraint "web_push_subscription_endpoint_unique" unique ("endpoint");`,
    );
  }
}
