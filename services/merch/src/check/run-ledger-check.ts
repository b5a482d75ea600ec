// npm run check:ledger: the long form of the ledger check (1,000 operations across 50 accounts, the merch
// process killed and restarted at random moments). DATABASE_URL / NATS_URL default to the local servers.
// Options: --operations N --accounts N --concurrency N --kills N --seed N
import { parseArgs } from "node:util";
import { runLedgerCheck } from "./ledger-check.ts";
import { startTopology } from "./topology.ts";

const { values } = parseArgs({
  options: {
    operations: { type: "string", default: "1000" },
    accounts: { type: "string", default: "50" },
    concurrency: { type: "string", default: "16" },
    kills: { type: "string", default: "5" },
    seed: { type: "string" },
  },
});

const top = await startTopology({
  databaseUrl: process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
  natsUrl: process.env.NATS_URL ?? "nats://127.0.0.1:4222",
});
let failed = true;
try {
  const report = await runLedgerCheck(top, {
    operations: Number(values.operations),
    accounts: Number(values.accounts),
    concurrency: Number(values.concurrency),
    kills: Number(values.kills),
    seed: values.seed ? Number(values.seed) : undefined,
    log: (line) => console.log(line),
  });
  console.log(`operations ${report.operations} (attempts ${report.attempts}), kills ${report.kills}`);
  for (const [kind, c] of Object.entries(report.byKind)) {
    console.log(`  ${kind.padEnd(8)} acknowledged ${c.ok}, refused ${c.refused}, unknown ${c.unknown}`);
  }
  console.log(`accounts ${report.accounts}, ledger entries ${report.entries}, purchases ${report.purchases}`);
  if (report.violations.length === 0) {
    console.log(
      "ledger check: OK (no negative balance, balances = sums of entries, each key debited at most once, acknowledged present, refused absent)",
    );
    failed = false;
  } else {
    console.log(`ledger check: ${report.violations.length} violations`);
    for (const v of report.violations.slice(0, 50)) console.log(`  ${v}`);
  }
} finally {
  await top.close();
}
process.exit(failed ? 1 : 0);
