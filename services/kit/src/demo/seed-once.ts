// How a service writes its demo content (`npm start`'s shop, products, voucher): once, into tables that do not have
// it yet, in one transaction. Replicas starting together may both find it missing; the one whose insert fails on
// the same fixed ids or codes finds it present afterwards and lets the other's stand.
import type { EntityManager } from "@mikro-orm/postgresql";

/**
 * Runs `write` in a transaction unless `present` finds the content there (asked inside it); answers what `write`
 * answered (how many rows it added), 0 when the content was there. A failed write is the replica race when the
 * content is present afterwards (0), else it is thrown.
 */
export async function seedOnce(
  em: EntityManager,
  present: (em: EntityManager) => Promise<boolean>,
  write: (em: EntityManager) => number | Promise<number>,
): Promise<number> {
  try {
    return await em.fork().transactional(async (tem) => ((await present(tem)) ? 0 : write(tem)));
  } catch (err) {
    if (await present(em.fork())) return 0;
    throw err;
  }
}
