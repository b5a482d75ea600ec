// The merch service's tables for typed SQL (issue 27), typed from its entity list: a statement the ORM's
// find/flush cannot say is written on these, in the caller's transaction.
import type { EntityManager } from "@mikro-orm/postgresql";
import { typedSql, type Tables } from "@tt/kit";
import type { entities } from "./entities.ts";

export type MerchTables = Tables<typeof entities>;

/** Typed SQL on the merch tables, in `em`'s transaction when it has one. */
export const db = (em: EntityManager) => typedSql<MerchTables>(em);
