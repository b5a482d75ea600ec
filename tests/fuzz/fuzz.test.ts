// The short form of the fuzz campaign (see campaign.ts): a few thousand generated requests against every
// service the platform registers, then the concurrency pass (creating operations by FUZZ_CALLERS callers at
// once) in the last FUZZ_PASS_SECONDS, in CI with the rest of the backend suites. FUZZ_SEED (and FUZZ_PATH)
// replay a failure; FUZZ_REQUESTS / FUZZ_SECONDS change the bounds.
import { describe, expect, it } from "vitest";
import { campaignOptions, formatReport, runCampaign } from "./campaign.ts";

const options = campaignOptions("short");
const print = (line: string) => process.stdout.write(`${line}\n`);

describe("fuzz campaign (short form)", () => {
  it(
    "issue 9 fuzz: no 5xx, no hang, no crash and /healthz green over every REST operation and RPC",
    async () => {
      const report = await runCampaign({ ...options, log: print });
      const text = formatReport(report);
      print(text);
      expect(report.operations).toBeGreaterThan(100);
      expect(report.sent).toBeGreaterThan(Math.min(options.requests, 1_000));
      expect(report.byClass["2xx"]).toBeGreaterThan(0);
      expect(report.byClass["4xx"]).toBeGreaterThan(0);
      expect(report.concurrencyPass.covered).toBeGreaterThan(0);
      expect(
        {
          crashes: report.crashes.length,
          hangs: report.hangs,
          health: report.healthFailures.length,
          findings: report.findings.length,
        },
        text,
      ).toEqual({
        crashes: 0,
        hangs: 0,
        health: 0,
        findings: 0,
      });
    },
    (options.seconds + 90) * 1000,
  );
});
