import { Migration } from "@mikro-orm/migrations";

/**
 * An index on the rooms' last change, so the room lists' snapshot learns whether any room changed since it was
 * loaded from the index alone (docs/decisions/0331-the-live-directory-cards-live-data-and-the-lists.md).
 */
export class Migration20261203010000_room_updated_index extends Migration {
  override up(): void {
    this.addSql(`create index "room_updated_index" on "room" ("updated_at")`);
  }
}
