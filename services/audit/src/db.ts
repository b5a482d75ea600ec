// The audit service's tables for typed SQL (issue 27), typed from its entity list: a statement the ORM's
// find/flush cannot say is written on these.
import type { EntityManager } from "@mikro-orm/postgresql";
import { autoCommitSql, type Tables } from "@tt/kit";
import type { entities } from "./entities.ts";

export type AuditTables = Tables<typeof entities>;

/** Typed SQL on the audit tables outside any transaction: each statement commits by itself. */
export const autoCommitDb = (em: EntityManager) => autoCommitSql<AuditTables>(em);
