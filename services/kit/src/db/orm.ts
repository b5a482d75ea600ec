// The MikroORM bootstrap every service shares: PostgreSQL, one schema per service (tables and the
// migrations table both live there), checked-in migrations applied in one global order (by name).
import type { MigrationObject } from "@mikro-orm/core";
import { Migrator } from "@mikro-orm/migrations";
import { MikroORM, type Options } from "@mikro-orm/postgresql";
import pg from "pg";
import type { ServiceDefinition } from "../service.ts";
import { orderMigrations } from "./migration-order.ts";
import { checkSchemaName } from "./schema-name.ts";

export interface InitOrmOptions {
  /** postgres:// connection URL. */
  url: string;
  /** The service's PostgreSQL schema; `migrateUp` creates it when missing. */
  schema: string;
  entities: NonNullable<Options["entities"]>;
  /** Applied by the timestamp their names start with (`orderMigrations`), whatever order they are listed in. */
  migrations: MigrationObject[];
  /** Logs every query (development). */
  debug?: boolean;
  /** Connection pool bounds; default MikroORM's. */
  pool?: { min?: number; max?: number };
  /** Anything else, applied last (tests). */
  overrides?: Partial<Options>;
}

export async function initOrm(opts: InitOrmOptions): Promise<MikroORM> {
  checkSchemaName(opts.schema);
  // Before any connection: a misnamed or twice-listed migration is a build problem.
  const migrationsList = orderMigrations(opts.migrations);
  return MikroORM.init({
    clientUrl: opts.url,
    // Queries from entities name the schema themselves, but hand-written migration SQL is unqualified:
    // the connection's search path sends it to the service's schema too. (`pg` takes startup options.)
    driverOptions: { options: `-c search_path=${opts.schema},public` },
    schema: opts.schema,
    // MikroORM finds a running transaction by context name (async-local); with the default name shared by every
    // service's ORM, a service called in process from inside another's transaction (an event consumer's handler)
    // ran its queries in the caller's transaction and ORM ("Metadata for entity User not found"). One name each.
    contextName: `tt-${opts.schema}`,
    entities: opts.entities,
    extensions: [Migrator],
    migrations: {
      migrationsList,
      tableName: "mikro_orm_migrations",
      snapshot: false,
      silent: true,
    },
    discovery: { warnWhenNoEntities: false },
    debug: opts.debug ?? false,
    ...(opts.pool ? { pool: opts.pool } : {}),
    ...opts.overrides,
  });
}

/**
 * The ORM of one service definition: the schema named after it, its entities and its checked-in migrations.
 * `poolMax` bounds its connection pool (DATABASE_POOL_MAX; default `pg`'s, 10).
 */
export function initServiceOrm(
  url: string,
  definition: Pick<ServiceDefinition, "name" | "entities" | "migrations">,
  opts: { poolMax?: number } = {},
): Promise<MikroORM> {
  return initOrm({
    url,
    schema: definition.name,
    entities: definition.entities,
    migrations: definition.migrations,
    ...(opts.poolMax === undefined ? {} : { pool: { max: opts.poolMax } }),
  });
}

/**
 * Creates the schema when missing and applies every pending migration; returns the names applied.
 * Replicas starting together (or a migration Job and a pod) race on the same schema — even
 * `create schema if not exists` fails for the loser of such a race — so all of it holds a PostgreSQL advisory
 * lock named after the schema, on a connection of its own: a session lock must be taken and released on the
 * same connection, which the ORM's pool does not promise.
 */
export async function migrateUp(orm: MikroORM): Promise<string[]> {
  const config = orm.config;
  const schema = config.get("schema") ?? "public";
  const lock = new pg.Client({ connectionString: config.get("clientUrl") });
  await lock.connect();
  try {
    await lock.query("select pg_advisory_lock(hashtext($1))", [`tt-migrate:${schema}`]);
    await lock.query(`create schema if not exists "${schema}"`);
    const applied = await orm.migrator.up();
    return applied.map((m) => m.name);
  } finally {
    await lock.end();
  }
}
