// Hand-written SQL kept for a measurement (issue 27) names its tables and columns in strings, which no type
// check reads: its test names them once more here, against the entity's metadata, so a renamed column fails.
import type { EntityName, MetadataStorage } from "@mikro-orm/core";
import { expect } from "vitest";

/**
 * Expects the entity's table to have every one of `columns` (database names, e.g. "balance_after") and, when
 * given, to be named `table`.
 */
export function expectColumns(
  orm: { getMetadata(): MetadataStorage },
  entity: EntityName,
  columns: readonly string[],
  table?: string,
): void {
  const meta = orm.getMetadata().get(entity);
  if (table !== undefined) expect(meta.tableName, `the table of ${meta.className}`).toBe(table);
  const have = new Set(meta.props.flatMap((prop) => (prop.persist === false ? [] : (prop.fieldNames ?? []))));
  expect(
    columns.filter((column) => !have.has(column)),
    `columns ${meta.className} (${meta.tableName}) does not have`,
  ).toEqual([]);
}
