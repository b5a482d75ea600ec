import { Migration } from "@mikro-orm/migrations";

/** The crates area: crates and their songs (gapped ranks, one song per crate once). */
export class Migration20261124160100_crate_tables extends Migration {
  override name = "Migration20261124160100_crate_tables";

  override up(): void | Promise<void> {
    this.addSql(
      `create table "crate" ("id" uuid not null, "short_id" varchar(16) not null, "user_uuid" uuid not null, "name" varchar(100) not null, "description" varchar(1000) not null default '', "special" varchar(8) null, "import_status" varchar(16) null, "thumbnails" jsonb not null default '[]', "current_position" int not null default 0, "songs_count" int not null default 0, "version" int not null default 0, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`alter table "crate" add constraint "crate_short_id_unique" unique ("short_id");`);
    this.addSql(`create index "crate_user_uuid_created_at_index" on "crate" ("user_uuid", "created_at");`);
    this.addSql(`alter table "crate" add constraint "crate_user_uuid_special_unique" unique ("user_uuid", "special");`);
    this.addSql(
      `create table "crate_song" ("id" uuid not null, "crate_id" uuid not null, "song_id" uuid not null, "rank" bigint not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "crate_song_song_id_index" on "crate_song" ("song_id");`);
    this.addSql(
      `alter table "crate_song" add constraint "crate_song_crate_id_rank_unique" unique ("crate_id", "rank");`,
    );
    this.addSql(
      `alter table "crate_song" add constraint "crate_song_crate_id_song_id_unique" unique ("crate_id", "song_id");`,
    );
    this.addSql(
      `alter table "crate_song" add constraint "crate_song_crate_id_foreign" foreign key ("crate_id") references "crate" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "crate_song" add constraint "crate_song_song_id_foreign" foreign key ("song_id") references "song" ("id");`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "crate_song" cascade;`);
    this.addSql(`drop table if exists "crate" cascade;`);
  }
}
