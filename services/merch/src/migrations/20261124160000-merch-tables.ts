import { Migration } from "@mikro-orm/migrations";

/** The merch service's tables: avatars, seasons and rankings, the token ledger, the shop, custom fields. */
export class Migration20261124160000_merch_tables extends Migration {
  override up(): void {
    this.addSql(
      'create table "avatar" ("id" uuid not null, "slug" varchar(64) not null, "name" varchar(100) not null, "status" varchar(20) not null, "discord_only" boolean not null default false, "token_cost" int not null default 0, "season_id" uuid null, "min_points" int not null default 0, "image_key" varchar(200) null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"))',
    );
    this.addSql('alter table "avatar" add constraint "avatar_slug_unique" unique ("slug")');
    this.addSql('create index "avatar_season_id_index" on "avatar" ("season_id")');
    this.addSql(
      'create table "avatar_assignment" ("id" uuid not null, "avatar_id" uuid not null, "user_uuid" uuid not null, "type" varchar(20) not null, "created_at" timestamptz not null, primary key ("id"))',
    );
    this.addSql('create index "avatar_assignment_user_uuid_index" on "avatar_assignment" ("user_uuid")');
    this.addSql(
      'alter table "avatar_assignment" add constraint "avatar_assignment_avatar_id_user_uuid_unique" unique ("avatar_id", "user_uuid")',
    );
    this.addSql(
      'create table "consumable" ("id" uuid not null, "name" varchar(100) not null, "token_cost" int not null, "file_id" uuid null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"))',
    );
    this.addSql('create index "consumable_created_at_index" on "consumable" ("created_at")');
    this.addSql(
      'create table "consumable_file" ("id" uuid not null, "key" varchar(200) not null, "content_type" varchar(64) not null, "size" int not null, "created_by" uuid not null, "created_at" timestamptz not null, primary key ("id"))',
    );
    this.addSql(
      'create table "consumable_purchase" ("id" uuid not null, "account_id" uuid not null, "user_uuid" uuid not null, "consumable_id" uuid not null, "token_cost" int not null, "room_uuid" uuid null, "idempotency_key" varchar(255) null, "request_hash" varchar(64) not null, "balance_after" int not null, "account_updated_at" timestamptz not null, "created_at" timestamptz not null, primary key ("id"))',
    );
    this.addSql('create index "consumable_purchase_account_id_index" on "consumable_purchase" ("account_id")');
    this.addSql(
      'alter table "consumable_purchase" add constraint "consumable_purchase_user_uuid_idempotency_key_unique" unique ("user_uuid", "idempotency_key")',
    );
    this.addSql(
      'create table "custom_field" ("id" uuid not null, "user_uuid" uuid not null, "key" varchar(100) not null, "value" varchar(2000) not null, "updated_at" timestamptz not null, primary key ("id"))',
    );
    this.addSql(
      'alter table "custom_field" add constraint "custom_field_user_uuid_key_unique" unique ("user_uuid", "key")',
    );
    this.addSql(
      'create table "lifetime_ranking_status" ("id" uuid not null, "user_uuid" uuid not null, "balance" int not null default 0, "updated_at" timestamptz not null, primary key ("id"))',
    );
    this.addSql(
      'alter table "lifetime_ranking_status" add constraint "lifetime_ranking_status_user_uuid_unique" unique ("user_uuid")',
    );
    this.addSql('create index "lifetime_ranking_status_balance_index" on "lifetime_ranking_status" ("balance")');
    this.addSql(
      'create table "points_award" ("id" uuid not null, "event_key" varchar(220) not null, "user_uuid" uuid not null, "season_id" uuid null, "points" int not null, "reason" varchar(200) null, "created_at" timestamptz not null, primary key ("id"))',
    );
    this.addSql('alter table "points_award" add constraint "points_award_event_key_unique" unique ("event_key")');
    this.addSql('create index "points_award_user_uuid_index" on "points_award" ("user_uuid")');
    this.addSql(
      'create table "ranking_status" ("id" uuid not null, "user_uuid" uuid not null, "season_id" uuid not null, "balance" int not null default 0, "updated_at" timestamptz not null, primary key ("id"))',
    );
    this.addSql('create index "ranking_status_user_uuid_index" on "ranking_status" ("user_uuid")');
    this.addSql('create index "ranking_status_season_id_balance_index" on "ranking_status" ("season_id", "balance")');
    this.addSql(
      'alter table "ranking_status" add constraint "ranking_status_season_id_user_uuid_unique" unique ("season_id", "user_uuid")',
    );
    this.addSql(
      'create table "season" ("id" uuid not null, "season_name" varchar(100) not null, "season_start" timestamptz not null, "created_at" timestamptz not null, primary key ("id"))',
    );
    this.addSql('alter table "season" add constraint "season_season_name_unique" unique ("season_name")');
    this.addSql('alter table "season" add constraint "season_season_start_unique" unique ("season_start")');
    this.addSql(
      'create table "token_account" ("id" uuid not null, "user_uuid" uuid not null, "balance" int not null default 0, "status" varchar(16) not null default \'active\', "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"))',
    );
    this.addSql('alter table "token_account" add constraint "token_account_user_uuid_unique" unique ("user_uuid")');
    this.addSql('alter table "token_account" add constraint "token_account_balance_check" check (balance >= 0)');
    this.addSql(
      'create table "token_bundle" ("id" uuid not null, "product_id" varchar(100) not null, "name" varchar(100) not null, "tokens" int not null, "thumbnail_key" varchar(200) null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"))',
    );
    this.addSql('alter table "token_bundle" add constraint "token_bundle_product_id_unique" unique ("product_id")');
    this.addSql(
      'create table "token_transaction" ("id" uuid not null, "account_id" uuid not null, "type" varchar(16) not null, "amount" int not null, "balance_after" int not null, "hold_id" uuid null, "reason" varchar(200) null, "reference" varchar(300) null, "created_at" timestamptz not null, primary key ("id"))',
    );
    this.addSql('create index "token_transaction_hold_id_index" on "token_transaction" ("hold_id")');
    this.addSql(
      'create index "token_transaction_account_id_created_at_index" on "token_transaction" ("account_id", "created_at")',
    );
    this.addSql(
      'alter table "token_transaction" add constraint "token_transaction_account_id_reference_unique" unique ("account_id", "reference")',
    );
    this.addSql(
      'alter table "avatar_assignment" add constraint "avatar_assignment_avatar_id_foreign" foreign key ("avatar_id") references "avatar" ("id") on delete cascade',
    );
  }
}
