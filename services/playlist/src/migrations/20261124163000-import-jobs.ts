import { Migration } from "@mikro-orm/migrations";

/** The imports area: one row per playlist import, its progress committed with each page of songs. */
export class Migration20261124163000_import_jobs extends Migration {
  override name = "Migration20261124163000_import_jobs";

  override up(): void | Promise<void> {
    this.addSql(
      `create table "import_job" ("crate_id" uuid not null, "user_uuid" uuid not null, "provider" varchar(32) not null, "playlist_id" varchar(255) not null, "storefront" varchar(8) not null default 'us', "status" varchar(16) not null, "next_offset" int not null default 0, "total" int not null default 0, "processed" int not null default 0, "added" int not null default 0, "skipped" int not null default 0, "message" varchar(300) not null default '', "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("crate_id"));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "import_job" cascade;`);
  }
}
