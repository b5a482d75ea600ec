import { Migration } from "@mikro-orm/migrations";

/**
 * Accounts are now created with the e-mail row of their sign-in address (create-account.ts); accounts made
 * before got theirs only when their e-mail list was first read. This gives them one now, as the list would
 * have (personal, waiting for its code), so every answer showing an account in full lists its address.
 * Reserved `.invalid` placeholders (bots, phone and Discord accounts without an address) get none.
 */
export class Migration20261124130000_primary_email_rows extends Migration {
  override name = "Migration20261124130000_primary_email_rows";

  override up(): void | Promise<void> {
    this.addSql(
      `insert into "user"."email" ("id", "user_id", "email", "type", "status", "primary", "code_attempts", "created_at", "updated_at")
       select gen_random_uuid(), u."id", u."email", 'personal', 'PENDING_VERIFICATION', true, 0, now(), now()
       from "user"."users" u
       where u."email" not like '%.invalid'
         and not exists (
           select 1 from "user"."email" e where e."user_id" = u."id" and e."primary" and e."status" <> 'DELETED'
         );`,
    );
  }
}
