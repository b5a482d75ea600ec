// npm run check:ledger: the long form of the ledger check (1,000 operations across 50 accounts, the merch
// process killed and restarted at random moments). DATABASE_URL / NATS_URL default to the local servers.
// Options: --operations N --accounts N --concurrency N --kills N --seed N
import { parseArgs } from "node:util";
import { runLedgerCheck } from "./ledger-check.ts";
import { startTopology } from "./topology.ts";

const say = (line: string) => process.stdout.write(`${line}\n`);

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
    log: (line) => say(line),
  });
  say(`operations ${report.operations} (attempts ${report.attempts}), kills ${report.kills}`);
  for (const [kind, c] of Object.entries(report.byKind)) {
    say(`  ${kind.padEnd(8)} acknowledged ${c.ok}, refused ${c.refused}, unknown ${c.unknown}`);
  }
  say(`accounts ${report.accounts}, ledger entries ${report.entries}, purchases ${report.purchases}`);
  if (report.violations.length === 0) {
    say(
      "ledger check: OK (no negative balance, balances = sums of entries, each key debited at most once, acknowledged present, refused absent)",
    );
    failed = false;
  } else {
    say(`ledger check: ${report.violations.length} violations`);
    for (const v of report.violations.slice(0, 50)) say(`  ${v}`);
  }
} finally {
  await top.close();
}
process.exit(failed ? 1 : 0);
