// The payment service's tables for typed SQL (issue 27), typed from its entity list: a statement the ORM's
// find/flush cannot say is written on these.
import type { EntityManager } from "@mikro-orm/postgresql";
import { typedSql, type Tables } from "@tt/kit";
import type { entities } from "./entities.ts";

export type PaymentTables = Tables<typeof entities>;

/** Typed SQL on the payment tables, in `em`'s transaction when it has one. */
export const db = (em: EntityManager) => typedSql<PaymentTables>(em);
