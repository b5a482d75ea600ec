// A service's PostgreSQL schema name is interpolated into DDL (the ORM's search path, the kit's generic
// migrations), so only plain lower-case identifiers are accepted.
const schemaPattern = /^[a-z_][a-z0-9_]{0,62}$/;

/** Throws unless `schema` is a plain lower-case identifier PostgreSQL takes unquoted. */
export function checkSchemaName(schema: string): void {
  if (!schemaPattern.test(schema)) throw new Error(`invalid schema name ${JSON.stringify(schema)}`);
}
