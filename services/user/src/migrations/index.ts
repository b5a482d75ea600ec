import type { MigrationObject } from "@mikro-orm/core";
import { Migration20261122042604_initial } from "./20261122042604-initial.ts";

/** Applied in this order; a new migration is generated with the migrator and appended here. */
export const migrationsList: MigrationObject[] = [
  { name: "Migration20261122042604_initial", class: Migration20261122042604_initial },
];
