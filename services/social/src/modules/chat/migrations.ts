import type { MigrationObject } from "@mikro-orm/core";
import { Migration } from "@mikro-orm/migrations";

/** The chat's tables (entities.ts). Reactions and reports are removed with their message by chat-store.ts. */
export class Migration20261124201000_chat extends Migration {
  override name = "Migration20261124201000_chat";

  override up(): void | Promise<void> {
    this.addSql(
      `create table "chat_block" ("user_uuid" uuid not null, "blocked_uuid" uuid not null, primary key ("user_uuid", "blocked_uuid"));`,
    );
    this.addSql(`create index "chat_block_blocked_uuid_index" on "chat_block" ("blocked_uuid");`);
    this.addSql(
      `create table "chat_message" ("id" bigserial primary key, "uuid" uuid not null, "room_uuid" uuid null, "sender_uuid" uuid null, "receiver_uuid" uuid null, "pair_key" varchar(73) null, "type" varchar(8) not null, "text" text not null default '', "plain" boolean not null default true, "content" jsonb not null default '{}', "created_at" timestamptz not null, "edited_at" timestamptz null);`,
    );
    this.addSql(`alter table "chat_message" add constraint "chat_message_uuid_unique" unique ("uuid");`);
    this.addSql(`create index "chat_message_room_uuid_id_index" on "chat_message" ("room_uuid", "id");`);
    this.addSql(`create index "chat_message_pair_key_id_index" on "chat_message" ("pair_key", "id");`);
    this.addSql(
      `create table "chat_reaction" ("message_id" bigint not null, "emoji" varchar(64) not null, "user_uuid" uuid not null, "name" varchar(100) not null default '', "created_at" timestamptz not null, primary key ("message_id", "emoji", "user_uuid"));`,
    );
    this.addSql(
      `create table "chat_read" ("user_uuid" uuid not null, "peer_uuid" uuid not null, "last_read_id" bigint not null default '0', primary key ("user_uuid", "peer_uuid"));`,
    );
    this.addSql(
      `create table "chat_report" ("message_id" bigint not null, "reporter_uuid" uuid not null, "reason" varchar(500) not null default '', "created_at" timestamptz not null, primary key ("message_id", "reporter_uuid"));`,
    );
    this.addSql(`create index "chat_report_reporter_uuid_index" on "chat_report" ("reporter_uuid");`);
  }
}

/** Each room's chat sequence (issue 28, entities.ts ChatRoomSequenceRow). */
export class Migration20261203100000_chat_room_sequence extends Migration {
  override name = "Migration20261203100000_chat_room_sequence";

  override up(): void | Promise<void> {
    this.addSql(
      `create table "chat_room_sequence" ("room_uuid" uuid not null, "sequence" bigint not null default '0', primary key ("room_uuid"));`,
    );
  }
}

/** The chat's migrations, spread into the service's list (src/migrations/index.ts). */
export const chatMigrations: MigrationObject[] = [
  { name: "Migration20261124201000_chat", class: Migration20261124201000_chat },
  { name: "Migration20261203100000_chat_room_sequence", class: Migration20261203100000_chat_room_sequence },
];
