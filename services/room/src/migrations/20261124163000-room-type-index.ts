import { Migration } from "@mikro-orm/migrations";

/** A narrow index on the room type, so the directory's total and the private count are index-only scans. */
export class Migration20261124163000_room_type_index extends Migration {
  override up(): void {
    this.addSql(`create index "room_type_index" on "room" ("type")`);
  }
}
