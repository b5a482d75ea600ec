import { Migration } from "@mikro-orm/migrations";

/** Uploaded songs and the service's generated secrets (issue 12). */
export class Migration20261124160000_songs extends Migration {
  override up(): void {
    this.addSql(
      `create table "song" ("id" serial primary key, "uuid" uuid not null, "owner" uuid not null, ` +
        `"track_name" varchar(200) not null default '', "artist_name" varchar(200) not null default '', ` +
        `"album_name" varchar(200) not null default '', "genre" varchar(100) not null default '', ` +
        `"release_year" int not null default 0, "duration" double precision not null default 0, ` +
        `"explicit" boolean not null default false, "isrc" varchar(12) not null default '', ` +
        `"status" varchar(32) not null, "status_message" varchar(500) not null default '', ` +
        `"progress" int not null default 0, "public" boolean not null default false, ` +
        `"demo" boolean not null default false, "file_type" varchar(8) not null, ` +
        `"source_bytes" int not null default 0, "hls_key" bytea not null, "hls_iv" bytea not null, ` +
        `"media_version" varchar(32) not null default '', "created_at" timestamptz not null, ` +
        `"updated_at" timestamptz not null)`,
    );
    this.addSql(`alter table "song" add constraint "song_uuid_unique" unique ("uuid")`);
    this.addSql(`create index "song_owner_index" on "song" ("owner")`);
    this.addSql(
      `create table "upload_secret" ("name" varchar(64) not null, "value" varchar(128) not null, primary key ("name"))`,
    );
  }
}
