// npm run check:faults [-- --short] [--faults kill-social,nats-8s] [--listeners 20]: the fault campaign of issue 28
// (fault-check.ts), one line per fault; exits 1 when a goal is missed.
import { parseArgs } from "node:util";
import { FULL, goalsMissed, runFaultCheck, SHORT, timeGoalsMissed, type FaultName } from "./fault-check.ts";

const { values } = parseArgs({
  options: {
    short: { type: "boolean", default: false },
    faults: { type: "string" },
    listeners: { type: "string" },
  },
});
const faults = (values.faults?.split(",") as FaultName[] | undefined) ?? (values.short ? SHORT : FULL);
const reports = await runFaultCheck({
  faults,
  listeners: Number(values.listeners ?? (values.short ? 6 : 20)),
  natsOutageSeconds: values.short ? 3 : 8,
  roomDownSeconds: values.short ? 5 : 60,
});
const missed = reports.flatMap((r) => [...goalsMissed(r), ...timeGoalsMissed(r)]);
for (const line of missed) process.stdout.write(`MISSED ${line}\n`);
process.exit(missed.length > 0 ? 1 : 0);
