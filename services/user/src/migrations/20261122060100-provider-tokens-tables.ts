import { Migration } from "@mikro-orm/migrations";

export class Migration20261122060100_providerTokensTables extends Migration {
  override name = "Migration20261122060100_providerTokensTables";

  override up(): void | Promise<void> {
    this.addSql(
      `create table "user"."provider_token_key" ("id" varchar(32) not null, "key" text not null, "created_at" timestamptz not null, primary key ("id"));`,
    );

    this.addSql(
      `create table "user"."provider_token" ("id" uuid not null, "user_id" uuid not null, "provider" varchar(32) not null, "variant" varchar(16) not null default 'web', "access_token_enc" text not null, "refresh_token_enc" text null, "expires_at" timestamptz null, "scope" text not null default '', "provider_user_id" varchar(255) null, "provider_display_name" varchar(255) null, "product" varchar(32) null, "provider_email" varchar(320) null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "user"."provider_token" add constraint "provider_token_user_id_provider_variant_unique" unique ("user_id", "provider", "variant");`,
    );
    this.addSql(
      `alter table "user"."provider_token" add constraint "provider_token_user_id_foreign" foreign key ("user_id") references "user"."users" ("id") on delete cascade;`,
    );
  }
}
