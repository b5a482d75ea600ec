import { Migration } from "@mikro-orm/migrations";

export class Migration20261122060000_contact_tables extends Migration {
  override name = "Migration20261122060000_contact_tables";

  override up(): void | Promise<void> {
    this.addSql(
      `create table "user"."dev_outbox_message" ("id" uuid not null, "channel" varchar(8) not null, "to" varchar(320) not null, "subject" text null, "body" text not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "dev_outbox_message_to_index" on "user"."dev_outbox_message" ("to");`);
    this.addSql(`create index "dev_outbox_message_created_at_index" on "user"."dev_outbox_message" ("created_at");`);

    this.addSql(
      `create table "user"."email" ("id" uuid not null, "user_id" uuid not null, "email" varchar(320) not null, "type" varchar(16) not null, "status" varchar(32) not null, "primary" boolean not null default false, "code_hash" text null, "code_expires_at" timestamptz null, "code_attempts" int not null default 0, "verified_at" timestamptz null, "verification_sent_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "email_user_id_index" on "user"."email" ("user_id");`);
    this.addSql(`create index "email_email_index" on "user"."email" ("email");`);

    this.addSql(
      `create table "user"."mobile_code" ("phone_number" varchar(16) not null, "code_hash" text not null, "expires_at" timestamptz not null, "attempts" int not null default 0, "sent_at" timestamptz not null, primary key ("phone_number"));`,
    );

    this.addSql(
      `create table "user"."phone_number" ("id" uuid not null, "phone_number" varchar(16) not null, "user_id" uuid null, "whitelisted" boolean not null default false, "validation_status" varchar(32) null, "country_code" varchar(2) null, "note" text null, "verified_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "user"."phone_number" add constraint "phone_number_phone_number_unique" unique ("phone_number");`,
    );
    this.addSql(`create index "phone_number_user_id_index" on "user"."phone_number" ("user_id");`);

    this.addSql(
      `create table "user"."phone_validation" ("phone_number" varchar(32) not null, "status" varchar(32) not null, "country_code" varchar(2) null, "carrier_type" varchar(64) null, "validated_at" timestamptz not null, primary key ("phone_number"));`,
    );
    this.addSql(`create index "phone_validation_validated_at_index" on "user"."phone_validation" ("validated_at");`);

    this.addSql(
      `create table "user"."throttle_window" ("key" varchar(400) not null, "window_start" timestamptz not null, "hits" int not null, primary key ("key"));`,
    );
  }
}
