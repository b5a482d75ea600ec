// What a PostgreSQL schema looks like, as plain sorted data a test can compare: every column (from
// information_schema.columns), every index (its definition) and every constraint (its definition). Two
// databases migrated differently end the same exactly when their snapshots are equal.
import pg from "pg";

export interface SchemaSnapshot {
  /** `table.column type nullable default`, one per column. */
  columns: string[];
  /** `table: create … index …` as PostgreSQL prints it. */
  indexes: string[];
  /** `table.name: definition`. */
  constraints: string[];
}

export async function schemaSnapshot(url: string, schema: string): Promise<SchemaSnapshot> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const columns = await client.query<{ line: string }>(
      `select table_name || '.' || column_name || ' ' || data_type
              || coalesce('(' || character_maximum_length || ')', '')
              || case when is_nullable = 'YES' then ' null' else ' not null' end
              || coalesce(' default ' || column_default, '') as line
         from information_schema.columns where table_schema = $1`,
      [schema],
    );
    const indexes = await client.query<{ line: string }>(
      `select tablename || ': ' || indexdef as line from pg_indexes where schemaname = $1`,
      [schema],
    );
    const constraints = await client.query<{ line: string }>(
      `select t.relname || '.' || c.conname || ': ' || pg_get_constraintdef(c.oid) as line
         from pg_constraint c
         join pg_class t on t.oid = c.conrelid
         join pg_namespace n on n.oid = t.relnamespace
        where n.nspname = $1`,
      [schema],
    );
    const sorted = (rows: { line: string }[]) => rows.map((r) => r.line).sort();
    return { columns: sorted(columns.rows), indexes: sorted(indexes.rows), constraints: sorted(constraints.rows) };
  } finally {
    await client.end();
  }
}
