import type { MigrationObject } from "@mikro-orm/core";
import { Migration } from "@mikro-orm/migrations";
import { describe, expect, it } from "vitest";
import { orderMigrations } from "./migration-order.ts";

class Noop extends Migration {
  override up(): void {}
}
const m = (name: string): MigrationObject => ({ name, class: Noop });
const names = (list: MigrationObject[]) => list.map((x) => x.name);

describe("orderMigrations", () => {
  it("issue 10: orders by the timestamp in the name, whatever area list named them first", () => {
    const contact = [m("Migration20261122060000_contact_tables"), m("Migration20261124130000_primary_email_rows")];
    const profile = [m("Migration20261122060000_profile_data_tables")];
    const moderation = [m("Migration20261122060200_moderation_tables")];
    const tokens = [m("Migration20261122060100_providerTokensTables")];
    expect(
      names(orderMigrations([m("Migration20261122042604_initial"), ...contact, ...profile, ...moderation, ...tokens])),
    ).toEqual([
      "Migration20261122042604_initial",
      "Migration20261122060000_contact_tables",
      "Migration20261122060000_profile_data_tables",
      "Migration20261122060100_providerTokensTables",
      "Migration20261122060200_moderation_tables",
      "Migration20261124130000_primary_email_rows",
    ]);
  });

  it("sorts by the timestamp first, with or without the Migration prefix", () => {
    expect(
      names(
        orderMigrations([m("Migration20261124000000"), m("20261122000000-things"), m("Migration20261123000000_b")]),
      ),
    ).toEqual(["20261122000000-things", "Migration20261123000000_b", "Migration20261124000000"]);
  });

  it("does not change the list it is given", () => {
    const list = [m("Migration20261124000000"), m("Migration20261122000000")];
    orderMigrations(list);
    expect(names(list)).toEqual(["Migration20261124000000", "Migration20261122000000"]);
  });

  it("issue 10: refuses a migration listed twice, naming it", () => {
    expect(() =>
      orderMigrations([m("Migration20261122000000_a"), m("Migration20261123000000_b"), m("Migration20261122000000_a")]),
    ).toThrow("migrations listed twice: Migration20261122000000_a");
  });

  it("refuses names without a leading timestamp, naming them", () => {
    expect(() => orderMigrations([m("Migration20261122000000"), m("initial"), m("Migration2026_short")])).toThrow(
      /must start with their yyyymmddhhmmss timestamp .*: "initial", "Migration2026_short"$/,
    );
  });
});
