import { Migration } from "@mikro-orm/migrations";

/** The catalogue area: artists, albums, songs and the provider ids that name them. */
export class Migration20261124160000_catalogue_tables extends Migration {
  override name = "Migration20261124160000_catalogue_tables";

  override up(): void | Promise<void> {
    this.addSql(
      `create table "artist" ("id" uuid not null, "short_id" varchar(16) not null, "name" varchar(300) not null, "name_key" varchar(300) not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`alter table "artist" add constraint "artist_short_id_unique" unique ("short_id");`);
    this.addSql(`alter table "artist" add constraint "artist_name_key_unique" unique ("name_key");`);
    this.addSql(
      `create table "album" ("id" uuid not null, "short_id" varchar(16) not null, "name" varchar(300) not null, "name_key" varchar(300) not null, "artist_id" uuid not null, "release_year" int not null default 0, "thumbnail" varchar(2048) not null default '', "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`alter table "album" add constraint "album_short_id_unique" unique ("short_id");`);
    this.addSql(
      `alter table "album" add constraint "album_artist_id_name_key_unique" unique ("artist_id", "name_key");`,
    );
    this.addSql(
      `create table "song" ("id" uuid not null, "short_id" varchar(16) not null, "isrc" varchar(15) null, "track_name" varchar(300) not null, "artist_name" varchar(300) not null, "track_key" varchar(300) not null, "artist_key" varchar(300) not null, "duration" double precision not null default 0, "explicit" boolean not null default false, "genre" varchar(100) not null default '', "album_name" varchar(300) not null default '', "release_year" int not null default 0, "album_id" uuid null, "artist_id" uuid null, "music_providers" jsonb not null default '{}', "thumbnails" jsonb not null default '{}', "links" jsonb not null default '{}', "previews" jsonb not null default '[]', "stream_urls" jsonb not null default '{}', "status" varchar(32) not null, "playback_token" varchar(2048) not null default '', "upload_song_uuid" uuid null, "owner_uuid" uuid null, "public" boolean not null default true, "demo" boolean not null default false, "available" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`alter table "song" add constraint "song_short_id_unique" unique ("short_id");`);
    this.addSql(`create index "song_isrc_index" on "song" ("isrc");`);
    this.addSql(`alter table "song" add constraint "song_upload_song_uuid_unique" unique ("upload_song_uuid");`);
    this.addSql(`create index "song_track_key_artist_key_index" on "song" ("track_key", "artist_key");`);
    this.addSql(`create index "song_created_at_index" on "song" ("created_at");`);
    this.addSql(
      `create table "song_provider_id" ("provider" varchar(32) not null, "provider_id" varchar(255) not null, "song_id" uuid not null, primary key ("provider", "provider_id"));`,
    );
    this.addSql(`create index "song_provider_id_song_id_index" on "song_provider_id" ("song_id");`);
    this.addSql(
      `alter table "album" add constraint "album_artist_id_foreign" foreign key ("artist_id") references "artist" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "song" add constraint "song_album_id_foreign" foreign key ("album_id") references "album" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "song" add constraint "song_artist_id_foreign" foreign key ("artist_id") references "artist" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "song_provider_id" add constraint "song_provider_id_song_id_foreign" foreign key ("song_id") references "song" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "song_provider_id" cascade;`);
    this.addSql(`drop table if exists "song" cascade;`);
    this.addSql(`drop table if exists "album" cascade;`);
    this.addSql(`drop table if exists "artist" cascade;`);
  }
}
