// The long form of the fuzz campaign (`npm run fuzz`): ≥ 100,000 requests, bounded in time, as a plain
// script. It finds or starts PostgreSQL and NATS exactly as the test suites do (their global setup), then
// runs the campaign shared with the short form and prints its figures. Exit code 1 on any finding.
//
//   npm run fuzz                                    # FUZZ_REQUESTS=100000 FUZZ_SECONDS=1200 by default
//   FUZZ_SEED=123 FUZZ_PATH=4:0:1 npm run fuzz      # replays one shrunk failure
//   FUZZ_CONCURRENT=1 FUZZ_SEED=… FUZZ_PATH=… npm run fuzz   # … with each request from FUZZ_CALLERS callers at once
//   FUZZ_OPS='^POST /api/…$' FUZZ_SEED=… FUZZ_REQUESTS=0 npm run fuzz   # the concurrency pass on one operation
import setup from "../setup/global-setup.ts";

const provided: Record<string, string> = {};
const teardown = await setup({ provide: (key: string, value: string) => (provided[key] = value) } as never);
// startTestPlatform reads the database and NATS URLs with vitest's inject(): outside a vitest worker, give
// it the same provided context the global setup gives the workers.
(globalThis as Record<string, unknown>).__vitest_worker__ = { providedContext: provided };

const { campaignOptions, formatReport, runCampaign } = await import("./campaign.ts");
const print = (line: string) => process.stdout.write(`${line}\n`);
const options = campaignOptions("long");
print(`fuzz: FUZZ_SEED=${options.seed}${options.path ? ` FUZZ_PATH=${options.path}` : ""}`);
// Ctrl-C (or a TERM) ends the run early but still prints the report and drops the test database.
const stop = new AbortController();
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => stop.abort());
let failed: boolean;
try {
  const report = await runCampaign({ ...options, signal: stop.signal, log: print });
  print(formatReport(report));
  failed = report.crashes.length + report.hangs + report.healthFailures.length + report.findings.length > 0;
} finally {
  await teardown();
}
process.exit(failed ? 1 : 0);
