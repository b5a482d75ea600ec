import { Migration } from "@mikro-orm/migrations";

/** The payment service's tables: products, checkouts, subscriptions, handled webhook events. */
export class Migration20261124173000_payment_tables extends Migration {
  override up(): void {
    this.addSql(
      'create table "product" ("id" uuid not null, "name" varchar(100) not null, "description" varchar(1000) not null, "payment_type" varchar(20) not null, "price" int not null, "currency" varchar(3) not null, "stripe_price_id" varchar(100) not null, "level" varchar(50) not null, "active" boolean not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"))',
    );
    this.addSql(
      'create table "checkout" ("id" uuid not null, "session_id" varchar(100) not null, "user_uuid" uuid not null, "product_id" uuid not null, "mode" varchar(20) not null, "quantity" int not null, "region" varchar(50) not null, "success_path" varchar(500) not null, "cancel_path" varchar(500) not null, "status" varchar(20) not null, "created_at" timestamptz not null, "completed_at" timestamptz null, primary key ("id"))',
    );
    this.addSql('alter table "checkout" add constraint "checkout_session_id_unique" unique ("session_id")');
    this.addSql('create index "checkout_user_uuid_index" on "checkout" ("user_uuid")');
    this.addSql(
      'create table "subscription" ("id" uuid not null, "user_uuid" uuid not null, "product_id" uuid not null, "level" varchar(50) not null, "status" varchar(20) not null, "region" varchar(50) not null, "stripe_subscription_id" varchar(100) null, "stripe_customer_id" varchar(100) null, "current_period_end" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"))',
    );
    this.addSql('create index "subscription_user_uuid_index" on "subscription" ("user_uuid")');
    this.addSql(
      'alter table "subscription" add constraint "subscription_stripe_subscription_id_unique" unique ("stripe_subscription_id")',
    );
    this.addSql('create index "subscription_created_at_index" on "subscription" ("created_at")');
    this.addSql(
      'create table "webhook_event" ("id" varchar(200) not null, "type" varchar(100) not null, "received_at" timestamptz not null, primary key ("id"))',
    );
  }
}
