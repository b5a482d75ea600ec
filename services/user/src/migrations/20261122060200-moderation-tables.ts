import { Migration } from "@mikro-orm/migrations";

/** Bans, deactivations and moderation comments (the moderation area's tables). */
export class Migration20261122060200_moderation_tables extends Migration {
  override name = "Migration20261122060200_moderation_tables";

  override up(): void | Promise<void> {
    this.addSql(
      `create table "user"."user_ban" ("user_id" uuid not null, "reason" text not null, "banned_by" uuid null, "created_at" timestamptz not null, "ends_at" timestamptz null, primary key ("user_id"));`,
    );
    this.addSql(`create index "user_ban_ends_at_index" on "user"."user_ban" ("ends_at");`);

    this.addSql(
      `create table "user"."deactivation" ("user_id" uuid not null, "reason" text not null default '', "requested_at" timestamptz null, "deactivated_at" timestamptz null, "deactivated_by" uuid null, primary key ("user_id"));`,
    );
    this.addSql(`create index "deactivation_requested_at_index" on "user"."deactivation" ("requested_at");`);

    this.addSql(
      `create table "user"."moderation_comment" ("id" uuid not null, "user_id" uuid not null, "author_id" uuid not null, "comment" text not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "moderation_comment_user_id_created_at_index" on "user"."moderation_comment" ("user_id", "created_at");`,
    );

    this.addSql(
      `alter table "user"."user_ban" add constraint "user_ban_user_id_foreign" foreign key ("user_id") references "user"."users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "user"."deactivation" add constraint "deactivation_user_id_foreign" foreign key ("user_id") references "user"."users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "user"."moderation_comment" add constraint "moderation_comment_user_id_foreign" foreign key ("user_id") references "user"."users" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "user"."moderation_comment" cascade;`);
    this.addSql(`drop table if exists "user"."deactivation" cascade;`);
    this.addSql(`drop table if exists "user"."user_ban" cascade;`);
  }
}
