import { Migration } from "@mikro-orm/migrations";

export class Migration20261122060000_accounts_tables extends Migration {
  override name = "Migration20261122060000_accounts_tables";

  override up(): void | Promise<void> {
    this.addSql(
      `create table "user"."discord_link" ("discord_id" varchar(32) not null, "user_id" uuid not null, "username" varchar(64) not null, "created_at" timestamptz not null, primary key ("discord_id"));`,
    );
    this.addSql(`alter table "user"."discord_link" add constraint "discord_link_user_id_unique" unique ("user_id");`);

    this.addSql(
      `create table "user"."bot_owner" ("bot_id" uuid not null, "owner_id" uuid not null, "created_at" timestamptz not null, primary key ("bot_id"));`,
    );
    this.addSql(`create index "bot_owner_owner_id_index" on "user"."bot_owner" ("owner_id");`);

    this.addSql(
      `create table "user"."account_token" ("id" uuid not null, "user_id" uuid not null, "purpose" varchar(16) not null, "token_hash" varchar(64) not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, "used_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`create index "account_token_user_id_index" on "user"."account_token" ("user_id");`);
    this.addSql(
      `alter table "user"."account_token" add constraint "account_token_token_hash_unique" unique ("token_hash");`,
    );

    this.addSql(
      `create table "user"."voucher" ("id" uuid not null, "code" varchar(64) not null, "status" varchar(16) not null, "capabilities" text[] not null default '{}', "badges" text[] not null default '{}', "note" text not null, "created_by_uuid" uuid not null, "redeemed_by_uuid" uuid null, "created_at" timestamptz not null, "expires_at" timestamptz null, "redeemed_at" timestamptz null, "revoked_at" timestamptz null, "version" int not null default 1, primary key ("id"));`,
    );
    this.addSql(`alter table "user"."voucher" add constraint "voucher_code_unique" unique ("code");`);

    this.addSql(
      `alter table "user"."discord_link" add constraint "discord_link_user_id_foreign" foreign key ("user_id") references "user"."users" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "user"."bot_owner" add constraint "bot_owner_bot_id_foreign" foreign key ("bot_id") references "user"."users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "user"."bot_owner" add constraint "bot_owner_owner_id_foreign" foreign key ("owner_id") references "user"."users" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "user"."account_token" add constraint "account_token_user_id_foreign" foreign key ("user_id") references "user"."users" ("id") on delete cascade;`,
    );
  }
}
