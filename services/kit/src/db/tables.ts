// Typed SQL (issue 27): a statement the ORM's find/flush cannot say is written with Kysely on MikroORM's own
// Kysely instance (`em.getKysely()` through `typedSql(em)`, the same pool and, inside `em.transactional`, the same transaction), its
// tables and columns typed from the service's entity definitions (`Tables<typeof entities>`), so renaming a
// property or a table makes every query that names the old one fail the type check. No MikroORM plugin runs
// (names are the database's: the entity naming strategy's table and column names, `crate_song.song_id`; its
// name mapping and value conversion cost more per statement than the statement's compilation: docs/decisions/0327-typed-queries.md). Tables are named without their schema: every service's connections search their
// own schema first (initOrm's search_path), as the migrations' SQL already relies on.
import type { EntityManager, InferKyselyDB } from "@mikro-orm/postgresql";
import {
  sql,
  type AliasedRawBuilder,
  type ColumnType,
  type Compilable,
  type CompiledQuery,
  type Kysely,
  type RawBuilder,
  type RootOperationNode,
} from "kysely";

export { sql };
export type { ExpressionBuilder, Kysely, Selectable } from "kysely";

/**
 * What PostgreSQL answers for a column: MikroORM's pg type parsers keep timestamps as text. Typed as text or a
 * Date, so a read goes through `new Date(…)` and a comparison may take a Date.
 */
type Answered<T> = T extends Date ? string | Date : T;
/** What a statement may write: a timestamp as a Date or as text. */
type Written<T> = T extends Date ? Date | string : T;
type Column<C> =
  C extends ColumnType<infer S, infer I, infer U>
    ? ColumnType<Answered<S>, Written<I>, Written<U>>
    : ColumnType<Answered<C>, Written<C>, Written<C>>;
type Typed<DB> = { [T in keyof DB]: { [C in keyof DB[T]]: Column<DB[T][C]> } };

/**
 * The tables of a list of entity definitions (defineEntity schemas) as Kysely sees them: the entity naming
 * strategy's table and column names (a many-to-one `song` is the column `song_id`), timestamps answered as text
 * (read them with `new Date(…)`).
 * A `bigint` column (`p.bigint("number")`) is typed as a number but answered as text by pg: read it with Number().
 */
export type Tables<E extends readonly { name: string }[]> = Typed<InferKyselyDB<E[number]>>;

/** Kysely on `em`'s connection: inside `em.transactional(...)` its statements run in that transaction. */
export function typedSql<DB>(em: EntityManager): Kysely<DB> {
  return em.getKysely() as unknown as Kysely<DB>;
}

/**
 * Kysely on the pool, outside any transaction of `em`: each statement commits by itself (a throttle's hit,
 * counted even when the call's own writes roll back).
 */
export function autoCommitSql<DB>(em: EntityManager): Kysely<DB> {
  return em.getConnection().getClient<DB>();
}

/**
 * A value for a json/jsonb column: pg sends a JavaScript array as a PostgreSQL array literal, which a json column
 * refuses, so the JSON text goes with a cast.
 */
export function jsonb<T>(value: T): RawBuilder<T> {
  return sql<T>`${JSON.stringify(value)}::jsonb`;
}

const SLOT = Symbol("tt.sql.slot");
type Slot = { readonly [SLOT]: string };
const isSlot = (value: unknown): value is Slot => typeof value === "object" && value !== null && SLOT in value;
const holdsSlot = (value: unknown): boolean => isSlot(value) || (Array.isArray(value) ? value.some(holdsSlot) : false);

/**
 * A statement of a hot path, built and compiled once and then run with each call's values: building and compiling
 * a Kysely statement costs about 0.05–0.1 ms of CPU, several times a crate move (docs/decisions/0327-typed-queries.md). `build` receives placeholders for the values (`p.crateId`), each of which must become one parameter of
 * the statement as it is (`where("crate_id", "=", p.crateId)`, `limit(p.limit)`): no branching on them and no
 * arrays of them. A placeholder that does not end up a parameter fails the first call.
 */
export function compiledOnce<DB, P extends Record<string, unknown>, O>(
  sqlOf: (em: EntityManager) => Kysely<DB>,
  build: (db: Kysely<DB>, p: P) => Compilable<O>,
): (em: EntityManager, values: P) => Promise<O[]> {
  let compiled: { sql: string; query: RootOperationNode; slots: ({ name: string } | { value: unknown })[] } | undefined;
  return async (em, values) => {
    const db = sqlOf(em);
    if (compiled === undefined) {
      const used = new Set<string>();
      const placeholders = new Proxy({} as P, {
        get: (_, name) => {
          used.add(String(name));
          return { [SLOT]: String(name) } satisfies Slot;
        },
      });
      const query = build(db, placeholders).compile();
      const slots = query.parameters.map((value) => {
        if (isSlot(value)) return { name: value[SLOT] };
        if (holdsSlot(value)) throw new Error("compiledOnce: a value must be a parameter of its own, not in an array");
        return { value };
      });
      const named = new Set(slots.flatMap((slot) => ("name" in slot ? [slot.name] : [])));
      const lost = [...used].filter((name) => !named.has(name));
      if (lost.length > 0) throw new Error(`compiledOnce: ${lost.join(", ")} did not become parameters`);
      compiled = { sql: query.sql, query: query.query, slots };
    }
    const { sql: text, query, slots } = compiled;
    const parameters = slots.map((slot) => ("name" in slot ? values[slot.name] : slot.value));
    const run: CompiledQuery<O> = { sql: text, query, parameters, queryId: { queryId: "" } };
    return (await db.executeQuery(run)).rows;
  };
}

/** The PostgreSQL types an array parameter is cast to (`sqlArray(ids, "uuid")` is `$1::uuid[]`). */
export type ArrayElementType = "uuid" | "text" | "varchar" | "int" | "bigint" | "timestamptz" | "boolean";

/** An array parameter with its element type: `col = any(${sqlArray(ids, "uuid")})`, `unnest(…)`. */
export function sqlArray<T>(values: readonly T[], type: ArrayElementType): RawBuilder<T[]> {
  return sql<T[]>`${[...values]}::${sql.raw(type)}[]`;
}

/**
 * Many rows as one array parameter per column, a batch statement's source (`unnest($1::text[], $2::uuid[]) as
 * u("provider", "song_id")`): one parameter a column whatever the number of rows, so PostgreSQL parses and plans
 * the batch as one small statement (a crate add of 300 songs: docs/decisions/0327-typed-queries.md).
 * Select from it (`selectFrom(unnestRows("u", {…}))`) and compare with it (`(a, b) in (select … from u)`).
 */
export function unnestRows<R extends Record<string, unknown>, A extends string>(
  alias: A,
  columns: { [K in keyof R & string]: RawBuilder<R[K][]> },
): AliasedRawBuilder<R, A> {
  const names = Object.keys(columns) as (keyof R & string)[];
  return sql<R>`unnest(${sql.join(names.map((name) => columns[name]))})`.as<A>(
    sql`${sql.id(alias)}(${sql.join(names.map((name) => sql.id(name)))})`,
  );
}

/**
 * Many rows as one jsonb parameter (`jsonb_to_recordset($1::jsonb) as r("id" uuid, …)`), each key of `types` a
 * column of the rows with its PostgreSQL type: the batch insert of records with json columns of their own.
 */
export function jsonRows<R extends object, A extends string>(
  alias: A,
  rows: readonly R[],
  types: { [K in keyof R & string]: string },
): AliasedRawBuilder<R, A> {
  const names = Object.keys(types) as (keyof R & string)[];
  return sql<R>`jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)`.as<A>(
    sql`${sql.id(alias)}(${sql.join(names.map((name) => sql`${sql.id(name)} ${sql.raw(types[name])}`))})`,
  );
}

/**
 * Takes a transaction-scoped advisory lock named by `key` (pg_advisory_xact_lock(hashtext(key))) in `em`'s
 * transaction: released at its commit or rollback.
 */
export async function advisoryXactLock(em: EntityManager, key: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(em.getKysely());
}

/** advisoryXactLock for several keys in one statement, taken in sorted order (two callers never wait in a cycle). */
export async function advisoryXactLocks(em: EntityManager, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await sql`select pg_advisory_xact_lock(hashtext(k)) from unnest(${sqlArray(keys, "text")}) as k order by k`.execute(
    em.getKysely(),
  );
}

/** Like advisoryXactLock, without waiting: true when this transaction now holds the lock. */
export async function tryAdvisoryXactLock(em: EntityManager, key: string): Promise<boolean> {
  const { rows } = await sql<{
    locked: boolean;
  }>`select pg_try_advisory_xact_lock(hashtext(${key})) as locked`.execute(em.getKysely());
  return rows[0]?.locked === true;
}

/** Rejects unless the database answers a trivial statement (on the pool, outside any transaction). */
export async function pingDatabase(em: EntityManager): Promise<void> {
  await sql`select 1`.execute(em.getConnection().getClient());
}
