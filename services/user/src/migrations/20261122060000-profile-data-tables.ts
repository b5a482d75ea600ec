import { Migration } from "@mikro-orm/migrations";

/** Profile pictures, the profile's picture choice and change time, socials and private user data. */
export class Migration20261122060000_profile_data_tables extends Migration {
  override name = "Migration20261122060000_profile_data_tables";

  override up(): void | Promise<void> {
    this.addSql(
      `create table "user"."user_data" ("user_id" uuid not null, "music_providers" text[] not null default '{}', "allow_explicit_audio" boolean not null default false, "audio_quality" varchar(8) not null default 'medium', "language" varchar(16) not null default 'en', primary key ("user_id"));`,
    );

    this.addSql(
      `create table "user"."user_image" ("id" uuid not null, "user_id" uuid not null, "kind" varchar(16) not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "user_image_user_id_index" on "user"."user_image" ("user_id");`);

    this.addSql(
      `create table "user"."profile_details" ("user_id" uuid not null, "profile_picture_id" uuid null, "cover_picture_id" uuid null, "updated_at" timestamptz not null, primary key ("user_id"));`,
    );

    this.addSql(
      `create table "user"."user_socials" ("user_id" uuid not null, "discord" varchar(200) not null default '', "instagram" varchar(200) not null default '', "twitter" varchar(200) not null default '', "tiktok" varchar(200) not null default '', "facebook" varchar(200) not null default '', "soundcloud" varchar(200) not null default '', "spotify" varchar(200) not null default '', "youtube" varchar(200) not null default '', "apple_music" varchar(200) not null default '', "website" varchar(200) not null default '', primary key ("user_id"));`,
    );

    this.addSql(
      `alter table "user"."user_data" add constraint "user_data_user_id_foreign" foreign key ("user_id") references "user"."users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "user"."user_image" add constraint "user_image_user_id_foreign" foreign key ("user_id") references "user"."users" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "user"."profile_details" add constraint "profile_details_user_id_foreign" foreign key ("user_id") references "user"."users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "user"."profile_details" add constraint "profile_details_profile_picture_id_foreign" foreign key ("profile_picture_id") references "user"."user_image" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "user"."profile_details" add constraint "profile_details_cover_picture_id_foreign" foreign key ("cover_picture_id") references "user"."user_image" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "user"."user_socials" add constraint "user_socials_user_id_foreign" foreign key ("user_id") references "user"."users" ("id") on update cascade on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "user"."profile_details" cascade;`);
    this.addSql(`drop table if exists "user"."user_image" cascade;`);
    this.addSql(`drop table if exists "user"."user_socials" cascade;`);
    this.addSql(`drop table if exists "user"."user_data" cascade;`);
  }
}
