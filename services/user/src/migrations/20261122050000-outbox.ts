import { Migration } from "@mikro-orm/migrations";

/** The kit's transactional outbox table, in the user schema: events leave with the business write. */
export class Migration20261122050000_outbox extends Migration {
  override name = "Migration20261122050000_outbox";

  override up(): void | Promise<void> {
    this.addSql(
      `create table "user"."outbox_message" ("id" uuid not null, "seq" bigserial, "subject" varchar(255) not null, "payload" bytea not null, "headers" jsonb null, "created_at" timestamptz not null, "published_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`alter table "user"."outbox_message" add constraint "outbox_message_seq_unique" unique ("seq");`);
    this.addSql(`create index "outbox_message_published_at_index" on "user"."outbox_message" ("published_at");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "user"."outbox_message" cascade;`);
  }
}
