// npm run bench:web — builds the frontends for production, then reports what a first visit costs: the
// shell's initial JavaScript (gzip), each remote's entry, and the Largest Contentful Paint of / in
// headless Chromium against a local server over the built files (the same handler the gateway mounts).
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { gzipSync } from "node:zlib";
import { percentile } from "@tt/kit/bench";
import { chromium } from "playwright-core";
import { buildFrontendsIfStale, chromiumLaunchOptions, createFrontendHandler } from "@tt/web-server";

const FRONTENDS = path.resolve(import.meta.dirname, "..");
const REMOTES = ["room", "crates", "shop", "admin"];
const RUNS = Number(process.env["BENCH_RUNS"] ?? 5);
// Issue 24's budgets: the first visit's JavaScript before the load event, and the median LCP of /.
const TARGET_INITIAL_JS = 120 * 1024;
const TARGET_LCP_MS = 500;

/**
 * Issue 24's baseline, measured before its changes (gzip -9 of each file, in KB): the shell's initial JavaScript of /,
 * and each app's whole build (every .js file of its dist).
 */
const BASELINE_INITIAL_JS_KB = 150.3;
const BASELINE_TOTAL_JS_KB: Record<string, number> = {
  shell: 410.8,
  room: 809.6,
  crates: 431.3,
  shop: 419.6,
  admin: 514.6,
};

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const gzipSize = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length;
const median = (values: number[]) => percentile(values, 0.5);

/** Every .js file of an app's build, gzip -9 each, added up. */
function totalJs(app: string): { files: number; raw: number; gzip: number } {
  const dist = path.join(FRONTENDS, app, "dist");
  const files = readdirSync(dist, { recursive: true, encoding: "utf8" }).filter((name) => name.endsWith(".js"));
  let raw = 0;
  let gzip = 0;
  for (const name of files) {
    raw += statSync(path.join(dist, name)).size;
    gzip += gzipSize(path.join(dist, name));
  }
  return { files: files.length, raw, gzip };
}

/** "+1.2 KB" / "−3.4 KB" against a baseline in KB. */
const change = (bytes: number, baselineKb: number) => {
  const delta = bytes / 1024 - baselineKb;
  return `${delta < 0 ? "−" : "+"}${Math.abs(delta).toFixed(1)} KB`;
};

/** The file a URL path of the local server stands for. */
function fileFor(pathname: string): string {
  const remote = /^\/remotes\/([^/]+)\/(.*)$/.exec(pathname);
  if (remote) return path.join(FRONTENDS, remote[1] ?? "", "dist", remote[2] ?? "");
  return path.join(FRONTENDS, "shell", "dist", pathname);
}

async function main() {
  const started = performance.now();
  const { built } = await buildFrontendsIfStale({
    force: true,
    log: (line) => console.log(`  ${line}`),
  });
  console.log(`built ${built.join(", ")} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);

  const handle = createFrontendHandler({ distRoot: FRONTENDS });
  const server = createServer((req, res) => {
    if (handle(req, res)) return;
    // No backend here: API calls fail fast, as they would against a gateway without that service.
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const lcps: number[] = [];
  let initialScripts: string[] = [];
  let allScripts: string[] = [];
  try {
    for (let run = 0; run < RUNS; run++) {
      // A new profile each run: a first visit with an empty cache.
      const profile = mkdtempSync(path.join(tmpdir(), "tt-bench-"));
      const context = await chromium.launchPersistentContext(profile, {
        ...chromiumLaunchOptions,
      });
      try {
        const page = context.pages()[0] ?? (await context.newPage());
        // Initial JavaScript: what is fetched before the load event, i.e. what the first screen needs.
        // The shell defers the rest (Connect, for the guest token) until after it.
        await page.goto(`${origin}/`, { waitUntil: "load" });
        await page.getByRole("heading", { level: 1 }).waitFor();
        await page.waitForLoadState("networkidle");
        const timing = await page.evaluate(() => {
          // getEntries() rather than getEntriesByType("navigation"): the type-check sees Node's performance
          // typings here, whose entry types have no "navigation"; this code runs in the browser.
          const navigation = performance
            .getEntries()
            .find((e) => (e.entryType as string) === "navigation") as PerformanceNavigationTiming;
          return performance
            .getEntriesByType("resource")
            .filter((entry) => new URL(entry.name).pathname.endsWith(".js"))
            .map((entry) => ({
              path: new URL(entry.name).pathname,
              initial: entry.startTime < navigation.loadEventStart,
            }));
        });
        const lcp = await page.evaluate(
          () =>
            new Promise<number>((resolve) => {
              new PerformanceObserver((list) => {
                const entries = list.getEntries();
                resolve(entries[entries.length - 1]?.startTime ?? NaN);
              }).observe({ type: "largest-contentful-paint", buffered: true });
            }),
        );
        lcps.push(lcp);
        initialScripts = timing.filter((entry) => entry.initial).map((entry) => entry.path);
        allScripts = timing.map((entry) => entry.path);
      } finally {
        await context.close();
        rmSync(profile, { recursive: true, force: true });
      }
    }
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }

  const report = (title: string, scripts: string[]) => {
    console.log(title);
    let total = 0;
    for (const script of [...new Set(scripts)]) {
      const file = fileFor(script);
      const size = gzipSize(file);
      total += size;
      console.log(`  ${script.padEnd(40)} ${kb(statSync(file).size).padStart(10)} raw ${kb(size).padStart(10)} gzip`);
    }
    return total;
  };
  const initialJs = report(
    "Shell: initial JavaScript of / (before the load event; gzip -9 of each file)",
    initialScripts,
  );
  console.log(`  total initial JS: ${kb(initialJs)} gzip (target ≤ ${kb(TARGET_INITIAL_JS)})`);
  console.log(
    `  issue-24 baseline: ${BASELINE_INITIAL_JS_KB.toFixed(1)} KB gzip (${change(initialJs, BASELINE_INITIAL_JS_KB)})\n`,
  );
  const deferred = allScripts.filter((script) => !initialScripts.includes(script));
  const deferredJs = report(
    "Shell: loaded after the first screen (guest token: Connect, protobuf, user service)",
    deferred,
  );
  console.log(`  total deferred JS: ${kb(deferredJs)} gzip; whole first visit ${kb(initialJs + deferredJs)} gzip\n`);

  console.log("Remotes: entry sizes (gzip -9)");
  for (const remote of REMOTES) {
    const dist = path.join(FRONTENDS, remote, "dist");
    const entry = gzipSize(path.join(dist, "remoteEntry.js"));
    const manifest = gzipSize(path.join(dist, "mf-manifest.json"));
    console.log(
      `  ${remote.padEnd(8)} remoteEntry.js ${kb(entry).padStart(9)}   mf-manifest.json ${kb(manifest).padStart(8)}`,
    );
  }

  console.log("\nEvery app: all JavaScript of its build (every .js file of its dist, gzip -9 each)");
  console.log(
    `  ${"app".padEnd(8)} ${"files".padStart(5)} ${"raw".padStart(10)} ${"gzip".padStart(10)}   issue-24 baseline`,
  );
  for (const app of ["shell", ...REMOTES]) {
    const { files, raw, gzip } = totalJs(app);
    const baseline = BASELINE_TOTAL_JS_KB[app];
    const before = baseline === undefined ? "—" : `${baseline.toFixed(1)} KB (${change(gzip, baseline)})`;
    console.log(
      `  ${app.padEnd(8)} ${String(files).padStart(5)} ${kb(raw).padStart(10)} ${kb(gzip).padStart(10)}   ${before}`,
    );
  }

  const lcp = median(lcps);
  console.log(`\nLargest Contentful Paint of / (headless Chromium, localhost, cold cache, ${RUNS} runs)`);
  console.log(
    `  median ${lcp.toFixed(0)} ms (runs: ${lcps.map((value) => value.toFixed(0)).join(", ")}; target ≤ ${TARGET_LCP_MS} ms)`,
  );

  // Every budget is checked; any one over fails the run (exit code 1).
  const budgets = [
    {
      name: "initial JS of /",
      ok: initialJs <= TARGET_INITIAL_JS,
      detail: `${kb(initialJs)} (target ≤ ${kb(TARGET_INITIAL_JS)})`,
    },
    {
      name: "median LCP of /",
      ok: lcp <= TARGET_LCP_MS,
      detail: `${lcp.toFixed(0)} ms (target ≤ ${TARGET_LCP_MS} ms)`,
    },
  ];
  console.log("");
  for (const budget of budgets) console.log(`  ${budget.ok ? "ok  " : "OVER"} ${budget.name}: ${budget.detail}`);
  const ok = budgets.every((budget) => budget.ok);
  console.log(`\n${ok ? "within" : "OVER"} targets`);
  if (!ok) process.exitCode = 1;
}

await main();
