// The small form of the Jepsen-style ledger check (npm run check:ledger runs the long one): the merch service as
// its own process behind a gateway, randomized concurrent operations with retried keys, one SIGKILL and restart.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { runLedgerCheck } from "./ledger-check.ts";
import { startTopology, type Topology } from "./topology.ts";

let top: Topology;

beforeAll(async () => {
  top = await startTopology({ databaseUrl: inject("databaseUrl"), natsUrl: inject("natsUrl") });
}, 180_000);
afterAll(() => top?.close());

describe("the token ledger under concurrency, retries and a killed process", () => {
  it(
    "issue 15: no overspend, balances = sums of entries, each key debited once, acknowledged present, refused absent",
    { timeout: 180_000 },
    async () => {
      const report = await runLedgerCheck(top, { operations: 80, accounts: 8, concurrency: 8, kills: 1 });
      expect(report.violations).toEqual([]);
      expect(report.kills).toBe(1);
      expect(report.byKind.purchase.ok).toBeGreaterThan(0);
    },
  );
});
