import { Migration } from "@mikro-orm/migrations";

/** The rooms' played time (presence module, issue 14). */
export class Migration20261124210000_social_played_time extends Migration {
  override up(): void {
    this.addSql(
      `create table "room_played_time" ("room_uuid" uuid not null, "played_seconds" double precision not null, "plays" int not null, "updated_at" timestamptz not null, primary key ("room_uuid"));`,
    );
  }
}

export const presenceMigrations = [
  { name: "Migration20261124210000_social_played_time", class: Migration20261124210000_social_played_time },
];
