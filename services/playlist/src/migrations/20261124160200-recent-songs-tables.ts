import { Migration } from "@mikro-orm/migrations";

/** The recent-songs area: plays by room uuid and the slug → room mapping. */
export class Migration20261124160200_recent_songs_tables extends Migration {
  override name = "Migration20261124160200_recent_songs_tables";

  override up(): void | Promise<void> {
    this.addSql(
      `create table "room_slug" ("slug" varchar(100) not null, "room_uuid" uuid not null, "updated_at" timestamptz not null, primary key ("slug"));`,
    );
    this.addSql(`create index "room_slug_room_uuid_index" on "room_slug" ("room_uuid");`);
    this.addSql(
      `create table "song_play" ("id" uuid not null, "room_uuid" uuid not null, "song_id" uuid not null, "dj_uuid" uuid null, "played_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "song_play_song_id_index" on "song_play" ("song_id");`);
    this.addSql(`create index "song_play_room_uuid_played_at_index" on "song_play" ("room_uuid", "played_at");`);
    this.addSql(
      `alter table "song_play" add constraint "song_play_song_id_foreign" foreign key ("song_id") references "song" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "room_slug" cascade;`);
    this.addSql(`drop table if exists "song_play" cascade;`);
  }
}
