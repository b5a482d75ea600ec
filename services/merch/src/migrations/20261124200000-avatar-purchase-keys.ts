import { Migration } from "@mikro-orm/migrations";

/** An avatar purchase keeps its Idempotency-Key and request hash: a retry answers the first answer. */
export class Migration20261124200000_avatar_purchase_keys extends Migration {
  override up(): void {
    this.addSql(
      'alter table "avatar_assignment" add column "idempotency_key" varchar(255) null, add column "request_hash" varchar(64) null',
    );
    this.addSql(
      'alter table "avatar_assignment" add constraint "avatar_assignment_user_uuid_idempotency_key_unique" unique ("user_uuid", "idempotency_key")',
    );
  }

  override down(): void {
    this.addSql('alter table "avatar_assignment" drop constraint "avatar_assignment_user_uuid_idempotency_key_unique"');
    this.addSql('alter table "avatar_assignment" drop column "idempotency_key", drop column "request_hash"');
  }
}
