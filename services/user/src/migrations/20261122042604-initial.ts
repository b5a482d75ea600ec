import { Migration } from "@mikro-orm/migrations";

export class Migration20261122042604_initial extends Migration {
  override name = "Migration20261122042604_initial";

  override up(): void | Promise<void> {
    this.addSql(`create schema if not exists "user";`);
    this.addSql(
      `create table "user"."signing_key" ("kid" varchar(64) not null, "private_key_pem" text not null, "public_jwk" jsonb not null, "created_at" timestamptz not null, "retired_at" timestamptz null, primary key ("kid"));`,
    );

    this.addSql(
      `create table "user"."users" ("id" uuid not null, "email" varchar(320) not null, "password_hash" text not null, "role" varchar(32) not null default 'user', "capabilities" text[] not null default '{}', "badges" text[] not null default '{}', "created_at" timestamptz not null, "updated_at" timestamptz not null, "version" int not null default 1, primary key ("id"));`,
    );
    this.addSql(`alter table "user"."users" add constraint "users_email_unique" unique ("email");`);

    this.addSql(
      `create table "user"."session" ("id" uuid not null, "user_id" uuid not null, "token_type" varchar(16) not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, "revoked_at" timestamptz null, "user_agent" text null, primary key ("id"));`,
    );
    this.addSql(`create index "session_user_id_index" on "user"."session" ("user_id");`);

    this.addSql(
      `create table "user"."profile" ("user_id" uuid not null, "nickname" varchar(64) not null, "avatar_id" varchar(128) null, "color" varchar(16) null, "bio" text null, primary key ("user_id"));`,
    );

    this.addSql(
      `alter table "user"."session" add constraint "session_user_id_foreign" foreign key ("user_id") references "user"."users" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "user"."profile" add constraint "profile_user_id_foreign" foreign key ("user_id") references "user"."users" ("id") on update cascade on delete cascade;`,
    );
  }
}
