// Issue 15: the batch purchase runs as a named prepared statement, so a connection keeps the generic plan it made
// first, often on a new database whose purchase table is still empty. That plan must look the key's earlier
// purchase up through the (user, key) index whatever the table's size then: a "hashed SubPlan" reads the whole
// purchase table on every execution, and every batch grew slower with every purchase ever made.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMerchHarness, type MerchHarness } from "../../testing/merch-harness.ts";
import { PURCHASE_BATCH } from "./ledger.ts";

let h: MerchHarness;
beforeAll(async () => {
  h = await createMerchHarness();
});
afterAll(() => h?.close());

describe("the batch purchase's generic plan", () => {
  it("probes the (user, key) index per purchase, even when planned on an empty purchase table", async () => {
    const plan = await h.orm.em.fork().transactional(async (em) => {
      const params = (PURCHASE_BATCH.text.match(/\$\d+/g) ?? []).reduce((n, p) => Math.max(n, Number(p.slice(1))), 0);
      await em.execute(`set local plan_cache_mode = force_generic_plan`);
      await em.execute(`prepare purchase_plan_test as ${PURCHASE_BATCH.text}`);
      try {
        const rows = await em.execute<Array<{ "QUERY PLAN": string }>>(
          `explain execute purchase_plan_test(${Array.from({ length: params }, () => "null").join(", ")})`,
        );
        return rows.map((r) => r["QUERY PLAN"]).join("\n");
      } finally {
        await em.execute(`deallocate purchase_plan_test`);
      }
    });
    expect(plan).not.toMatch(/hashed SubPlan/i);
    expect(plan).not.toMatch(/Seq Scan on consumable_purchase/);
    expect(plan).toMatch(/consumable_purchase_user_uuid_idempotency_key_unique on consumable_purchase/);
  });
});
