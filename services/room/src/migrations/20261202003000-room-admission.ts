import { Migration } from "@mikro-orm/migrations";

/** Callers admitted to a private room with its guest password (issue 23). */
export class Migration20261202003000_room_admission extends Migration {
  override up(): void {
    this.addSql(
      `create table "room_admission" ("room_id" uuid not null, "caller" varchar(140) not null, "password_tag" varchar(64) not null, "admitted_at" timestamptz not null, primary key ("room_id", "caller"))`,
    );
  }
}
