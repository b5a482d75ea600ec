import { Migration } from "@mikro-orm/migrations";

/** Issue 26: a notification's read time, so the web shell's bell counts the unread ones. */
export class Migration20261203000000_notification_read extends Migration {
  override up(): void {
    this.addSql(`alter table "notification" add column "read_at" timestamptz null`);
  }
}
