// The room service's tables for typed SQL (issue 27), typed from its entity list: a statement the ORM's
// find/flush cannot say is written on these, in the caller's transaction.
import type { EntityManager } from "@mikro-orm/postgresql";
import { autoCommitSql, typedSql, type Tables } from "@tt/kit";
import type { entities } from "./entities.ts";

export type RoomTables = Tables<typeof entities>;

/** Typed SQL on the room tables, in `em`'s transaction when it has one. */
export const db = (em: EntityManager) => typedSql<RoomTables>(em);

/** Typed SQL on the room tables outside any transaction: each statement commits by itself. */
export const autoCommitDb = (em: EntityManager) => autoCommitSql<RoomTables>(em);
