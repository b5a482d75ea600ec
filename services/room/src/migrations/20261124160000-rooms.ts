import { Migration } from "@mikro-orm/migrations";

/** Rooms, their slugs (current and earlier), role grants and visits. */
export class Migration20261124160000_rooms extends Migration {
  override up(): void {
    this.addSql(
      `create table "room" ("id" uuid not null, "slug" varchar(100) not null, "name" varchar(80) not null, "description" text not null default '', "owner_id" uuid not null, "type" varchar(16) not null, "design" varchar(32) not null, "dj_type" varchar(32) not null, "number_of_djs" int not null, "is_live" boolean not null default false, "live_since" timestamptz null, "played_seconds" bigint not null default '0', "live_audio" boolean not null default false, "pinned_messages" jsonb not null, "poster_key" varchar(200) null, "external_url" varchar(2048) null, "discord_guild" varchar(32) null, "guest_password_hash" varchar(255) null, "guest_password_lookup" varchar(64) null, "promoted" boolean not null default false, "promoted_at" timestamptz null, "music_providers" text[] not null, "conversation_cleared_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"))`,
    );
    this.addSql(`alter table "room" add constraint "room_slug_unique" unique ("slug")`);
    this.addSql(`create index "room_discord_guild_index" on "room" ("discord_guild")`);
    this.addSql(`create index "room_guest_password_lookup_index" on "room" ("guest_password_lookup")`);
    this.addSql(`create index "room_directory_index" on "room" ("type", "is_live", "created_at", "id")`);
    this.addSql(`create index "room_promoted_index" on "room" ("promoted", "promoted_at", "id")`);
    this.addSql(`create index "room_owner_index" on "room" ("owner_id", "created_at", "id")`);
    this.addSql(
      `create table "room_slug" ("slug" varchar(100) not null, "room_id" uuid not null, "created_at" timestamptz not null, primary key ("slug"))`,
    );
    this.addSql(`create index "room_slug_room_id_index" on "room_slug" ("room_id")`);
    this.addSql(
      `create table "room_user_role" ("id" uuid not null, "room_id" uuid not null, "user_id" uuid not null, "role" varchar(32) not null, "expires_at" timestamptz null, "granted_by" uuid null, "created_at" timestamptz not null, primary key ("id"))`,
    );
    this.addSql(`create index "room_user_role_user_index" on "room_user_role" ("user_id", "role")`);
    this.addSql(`create index "room_user_role_role_index" on "room_user_role" ("role", "created_at", "id")`);
    this.addSql(
      `alter table "room_user_role" add constraint "room_user_role_room_user_role_unique" unique ("room_id", "user_id", "role")`,
    );
    this.addSql(
      `create table "room_visit" ("id" uuid not null, "user_id" uuid not null, "room_id" uuid not null, "visited_at" timestamptz not null, primary key ("id"))`,
    );
    this.addSql(`create index "room_visit_user_index" on "room_visit" ("user_id", "visited_at")`);
    this.addSql(`create index "room_visit_room_index" on "room_visit" ("room_id", "visited_at")`);
    this.addSql(`alter table "room_visit" add constraint "room_visit_user_room_unique" unique ("user_id", "room_id")`);
  }
}
