// One global order for a service's migrations, whatever list or area names them: by the timestamp their name
// starts with, then by name. MikroORM applies a `migrationsList` in the order it is given, so two areas that
// each append to their own list would otherwise decide the order by the order of the spreads in the service's
// index — and a database that was migrated before a list grew would have run them in another order than a
// fresh one.
import type { MigrationObject } from "@mikro-orm/core";

// `Migration20261124130000_primary_email_rows`, `20261122000000-things`: the 14 digits are yyyymmddhhmmss.
const namePattern = /^(?:Migration)?(\d{14})(?:[_-][A-Za-z0-9_-]+)?$/;

/**
 * The migrations sorted by the timestamp their name starts with, then by name. Throws, naming them, when a
 * name has no timestamp or is listed twice (the second would run again on every fresh database).
 */
export function orderMigrations(migrations: readonly MigrationObject[]): MigrationObject[] {
  const keyed: { key: string; migration: MigrationObject }[] = [];
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  const unnamed: string[] = [];
  for (const migration of migrations) {
    const name = migration.name;
    if (seen.has(name)) duplicates.add(name);
    seen.add(name);
    const match = namePattern.exec(name);
    if (!match) {
      unnamed.push(JSON.stringify(name));
      continue;
    }
    keyed.push({ key: match[1]!, migration });
  }
  if (duplicates.size > 0) throw new Error(`migrations listed twice: ${[...duplicates].join(", ")}`);
  if (unnamed.length > 0) {
    throw new Error(
      `migration names must start with their yyyymmddhhmmss timestamp (Migration20261124130000_what): ${unnamed.join(", ")}`,
    );
  }
  return keyed
    .sort((a, b) => compare(a.key, b.key) || compare(a.migration.name, b.migration.name))
    .map((k) => k.migration);
}

function compare(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}
