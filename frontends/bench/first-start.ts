// npm run bench:first-start (issue 26, "First start time"): what a newcomer waits for after `npm ci` on a fresh
// clone, and what the web build costs. It prints both beside the figures the issue was filed with and exits 1 over a
// target (≤ 30 s from the end of `npm ci` to the printed URL with every page working; ≤ 15 s of CPU for the web build
// of all five apps). No test times anything.
//
// What it does, in a temporary folder (BENCH_CLONE_PREFIX, default <tmpdir>/first-start-):
//   1. a clean clone: `git clone` of this checkout and a checkout of its HEAD commit (uncommitted changes are not in
//      it: commit before you measure);
//   2. the end of `npm ci`, without a network install: a hard-link copy (`cp -al`) of this checkout's node_modules
//      trees (the root's and any workspace's) and of the generated protobuf code (proto/gen, which `npm ci` writes in
//      its postinstall). The files are the ones `npm ci` would have written, and no build cache comes along (the
//      root's node_modules/.cache is left out), so what follows starts as cold as after a real `npm ci`;
//   3. the web build alone: buildFrontendsIfStale with force (the code `npm start` runs, all five apps), its wall
//      clock and the CPU time (user + sys) of its whole process tree; then its output and any cache are removed;
//   4. the README's start command, `npm start`, on the embedded defaults (a fresh DATA_DIR in the clone: PostgreSQL
//      and nats-server of its own; BENCH_PORT, default 8095), timed from the spawn to the printed URL line, with the
//      CPU time of its process tree at that moment and the load average beside; then every page is checked (/ and
//      the scripts it names, /readyz, /remotes.json, each remote's mf-manifest.json and the remoteEntry.js it names)
//      and the time until they all answered is "the URL with every page working". The start's log lines give the
//      timeline (embedded PostgreSQL and NATS, the services, each web app built).
// BENCH_KEEP=1 keeps the clone. Wall clock is noisy on a shared machine; the CPU figures are the ones to compare.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";

const REPO = path.resolve(import.meta.dirname, "../..");
const PORT = Number(process.env["BENCH_PORT"] ?? 8095);
/** The issue's figures ("today"): `npm ci && npm start` printed its URL after 50 to 111 s; the web build 56 s CPU. */
const TODAY = { toUrlSeconds: [50, 111] as const, webBuildCpuSeconds: 56 };
const TARGET = { toUrlSeconds: 30, webBuildCpuSeconds: 15 };
const APPS = ["shell", "room", "crates", "shop", "admin"];

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

// ——— CPU time of a process tree (Linux /proc) ———

const CLOCK_TICKS = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;

interface ProcStat {
  pid: number;
  ppid: number;
  /** user + sys of the process and of its children it has waited for, in seconds. */
  cpu: number;
}

function readStat(pid: number): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces and parentheses: the fields after it follow the last ")".
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    // fields[0] is field 3 (state): ppid is field 4, utime 14, stime 15, cutime 16, cstime 17.
    const ticks = [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index]), 0);
    return { pid, ppid: Number(fields[1]), cpu: ticks / CLOCK_TICKS };
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds (user + sys) of a live process and all its descendants: each live one's own time plus what its
 * finished children used (which the kernel adds to the parent when it reaps them), so nothing is counted twice.
 */
function treeCpu(root: number): number {
  const stats = readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readStat(Number(name)))
    .filter((stat): stat is ProcStat => stat !== undefined);
  const inTree = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const stat of stats) {
      if (!inTree.has(stat.pid) && inTree.has(stat.ppid)) {
        inTree.add(stat.pid);
        grew = true;
      }
    }
  }
  return stats.filter((stat) => inTree.has(stat.pid)).reduce((sum, stat) => sum + stat.cpu, 0);
}

// ——— the clean clone ———

function run(command: string, args: string[], cwd = REPO): string {
  return execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
}

/** Workspace folders with a node_modules of their own (npm puts one there when a version differs from the root's). */
function workspaceModules(): string[] {
  const patterns = (JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8")) as { workspaces: string[] })
    .workspaces;
  const folders = patterns.flatMap((pattern) => {
    if (!pattern.endsWith("/*")) return [pattern];
    const parent = pattern.slice(0, -2);
    return readdirSync(path.join(REPO, parent), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => path.join(parent, entry.name));
  });
  return folders.map((folder) => path.join(folder, "node_modules")).filter((dir) => existsSync(path.join(REPO, dir)));
}

function makeClone(): { dir: string; commit: string } {
  const prefix = process.env["BENCH_CLONE_PREFIX"] ?? path.join(tmpdir(), "first-start-");
  const dir = mkdtempSync(prefix);
  // mkdtemp makes it 0700; as root the embedded PostgreSQL runs as the `postgres` user, which must reach its binaries.
  chmodSync(dir, 0o755);
  const commit = run("git", ["rev-parse", "HEAD"]).trim();
  if (run("git", ["status", "--porcelain", "--untracked-files=no"]).trim() !== "") {
    console.log("note: this checkout has uncommitted changes; the clone measures the commit only");
  }
  run("git", ["clone", "--quiet", "--no-checkout", REPO, dir]);
  run("git", ["checkout", "--quiet", commit], dir);
  // Stands in for the end of `npm ci`: the same files, hard-linked instead of downloaded and unpacked.
  for (const tree of ["node_modules", ...workspaceModules(), path.join("proto", "gen")]) {
    run("cp", ["-al", path.join(REPO, tree), path.join(dir, tree)]);
  }
  rmSync(path.join(dir, "node_modules", ".cache"), { recursive: true, force: true });
  return { dir, commit };
}

/** What a previous build left in the clone: the apps' output and any build cache. */
function removeBuildOutput(dir: string): void {
  for (const app of APPS) rmSync(path.join(dir, "frontends", app, "dist"), { recursive: true, force: true });
  rmSync(path.join(dir, "node_modules", ".cache"), { recursive: true, force: true });
}

// ——— 3. the web build alone ———

/** Runs in the clone (`first-start.ts build`): the web build `npm start` runs, forced. */
async function buildOnly(): Promise<void> {
  const { buildFrontendsIfStale } = await import("@tt/web-server");
  const { built } = await buildFrontendsIfStale({ force: true });
  if (built.length !== APPS.length) throw new Error(`built ${built.join(", ")}, not all of ${APPS.join(", ")}`);
}

function measureWebBuild(dir: string): { wallMs: number; cpu: number; loadBefore: string; loadAfter: string } {
  const loadBefore = load();
  const started = performance.now();
  // bash's `times` prints the CPU time of every process it (and they) waited for: webpack's processes included.
  const result = spawnSync(
    "bash",
    [
      "-c",
      '"$@" || exit $?; times',
      "bash",
      process.execPath,
      "--experimental-transform-types",
      "--disable-warning=ExperimentalWarning",
      path.join("frontends", "bench", "first-start.ts"),
      "build",
    ],
    { cwd: dir, encoding: "utf8", env: { ...process.env, NODE_ENV: "production" } },
  );
  const wallMs = performance.now() - started;
  if (result.status !== 0) throw new Error(`the web build failed:\n${result.stdout}\n${result.stderr}`);
  const children = result.stdout.trim().split("\n").at(-1) ?? "";
  const match = /^(\d+)m([\d.]+)s (\d+)m([\d.]+)s$/.exec(children);
  if (!match) throw new Error(`no CPU times from bash: ${children}`);
  const [, um, us, sm, ss] = match.map(Number) as [number, number, number, number, number];
  return { wallMs, cpu: um * 60 + us + sm * 60 + ss, loadBefore, loadAfter: load() };
}

// ——— 4. npm start ———

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

async function ok(url: string, what: string): Promise<Response> {
  const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  if (res.status !== 200) throw new Error(`${what} (${url}) answered ${res.status}`);
  return res;
}

/** Every page works: the shell and its scripts, readiness, and each remote's manifest and entry. */
async function checkPages(origin: string): Promise<string[]> {
  const checked: string[] = [];
  const html = await (await ok(`${origin}/`, "the shell's page")).text();
  for (const [, src] of html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)) {
    await (await ok(new URL(src ?? "", `${origin}/`).href, "a script of the shell")).arrayBuffer();
  }
  checked.push("/");
  await (await ok(`${origin}/readyz`, "readiness")).arrayBuffer();
  checked.push("/readyz");
  const listing = (await (await ok(`${origin}/remotes.json`, "the remotes' list")).json()) as
    Array<{ name: string; entry: string }> | { remotes: Array<{ name: string; entry: string }> };
  const remotes = Array.isArray(listing) ? listing : listing.remotes;
  for (const remote of remotes) {
    const manifestUrl = new URL(remote.entry, `${origin}/`);
    const manifest = (await (await ok(manifestUrl.href, `${remote.name}'s manifest`)).json()) as {
      metaData: { remoteEntry: { name: string; path: string } };
    };
    const entry = manifest.metaData.remoteEntry;
    const entryUrl = new URL(path.posix.join(entry.path, entry.name), manifestUrl);
    await (await ok(entryUrl.href, `${remote.name}'s remoteEntry`)).arrayBuffer();
    checked.push(`${remote.name} (manifest, entry)`);
  }
  const missing = APPS.slice(1).filter((app) => !remotes.some((remote) => remote.name === app));
  if (missing.length > 0) throw new Error(`/remotes.json lacks ${missing.join(", ")}`);
  return checked;
}

interface StartFigures {
  toUrlMs: number;
  toPagesMs: number;
  cpuAtUrl: number;
  loadBefore: string;
  loadAtUrl: string;
  timeline: Array<{ atMs: number; line: string }>;
  checked: string[];
}

/** Log lines worth a place in the timeline: where the start's time goes. */
const MILESTONE =
  /PostgreSQL|postgres|nats|migrat|started|ready|listening|built|building|seeded|demo|the API is up|URL follows/i;

async function measureStart(dir: string): Promise<StartFigures> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(PORT),
    METRICS_PORT: "0",
    DATA_DIR: path.join(dir, ".data"),
    EMBEDDED_POSTGRES_PORT: String(await freePort()),
  };
  // A newcomer's environment: the embedded PostgreSQL and nats-server, not the machine's.
  for (const name of ["DATABASE_URL", "NATS_URL", "NODE_ENV", "SKIP_WEB_BUILD", "WEB_DIST_ROOT"]) delete env[name];
  const loadBefore = load();
  const started = performance.now();
  const child = spawn("npm", ["start"], { cwd: dir, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const timeline: Array<{ atMs: number; line: string }> = [];
  let output = "";
  let exited = false;
  child.on("exit", () => (exited = true));
  const stop = async () => {
    if (exited || child.pid === undefined) return;
    const gone = new Promise((resolve) => child.once("exit", resolve));
    process.kill(-child.pid, "SIGTERM");
    const timer = setTimeout(() => !exited && process.kill(-child.pid!, "SIGKILL"), 30_000);
    await gone;
    clearTimeout(timer);
  };
  try {
    const url = await new Promise<{ url: string; atMs: number; cpu: number; load: string }>((resolve, reject) => {
      const onLine = (raw: string) => {
        const atMs = performance.now() - started;
        output += `${raw}\n`;
        let line = raw;
        try {
          const parsed = JSON.parse(raw) as { msg?: string; service?: string };
          line = `${parsed.service ?? ""}: ${parsed.msg ?? raw}`;
        } catch {
          // a plain line (npm's header, the start's own messages)
        }
        if (line.trim() && MILESTONE.test(line)) timeline.push({ atMs, line: line.trim().slice(0, 110) });
        const listening = /turntable is listening on (\S+)/.exec(raw);
        if (listening?.[1]) resolve({ url: listening[1], atMs, cpu: treeCpu(child.pid!), load: load() });
      };
      let buffered = { stdout: "", stderr: "" };
      for (const stream of ["stdout", "stderr"] as const) {
        child[stream].setEncoding("utf8");
        child[stream].on("data", (chunk: string) => {
          const lines = (buffered[stream] + chunk).split("\n");
          buffered = { ...buffered, [stream]: lines.pop() ?? "" };
          for (const line of lines) onLine(line);
        });
      }
      child.once("exit", (code) =>
        reject(new Error(`npm start exited (${code}) before its URL:\n${output.slice(-4000)}`)),
      );
      setTimeout(() => reject(new Error(`no URL within 10 minutes:\n${output.slice(-4000)}`)), 600_000).unref();
    });
    const origin = url.url.replace(/\/$/, "");
    const checked = await checkPages(origin);
    const toPagesMs = performance.now() - started;
    return {
      toUrlMs: url.atMs,
      toPagesMs,
      cpuAtUrl: url.cpu,
      loadBefore,
      loadAtUrl: url.load,
      timeline,
      checked,
    };
  } finally {
    await stop();
  }
}

// ——— main ———

async function main(): Promise<void> {
  if (process.argv[2] === "build") return buildOnly();
  console.log(`bench:first-start on ${process.execPath} (${process.version}), load average ${load()}\n`);
  const cloneStarted = performance.now();
  const { dir, commit } = makeClone();
  console.log(`clean clone of ${commit.slice(0, 12)} in ${dir} (${seconds(performance.now() - cloneStarted)})`);
  console.log("  node_modules and proto/gen hard-linked from this checkout: stands in for the end of `npm ci`\n");
  try {
    console.log("web build alone (buildFrontendsIfStale, force: all five apps, as npm start builds them)");
    const build =
      process.env["BENCH_SKIP_BUILD"] === "1"
        ? { cpu: NaN, wallMs: NaN, loadBefore: "", loadAfter: "" }
        : measureWebBuild(dir);
    console.log(
      `  CPU ${build.cpu.toFixed(1)} s (user + sys of the process tree); wall ${seconds(build.wallMs)}` +
        ` (load average ${build.loadBefore} → ${build.loadAfter})\n`,
    );
    removeBuildOutput(dir);

    console.log(`npm start (fresh DATA_DIR, embedded PostgreSQL and nats-server, PORT ${PORT})`);
    const start = await measureStart(dir);
    for (const { atMs, line } of start.timeline) console.log(`  ${seconds(atMs).padStart(7)}  ${line}`);
    console.log(
      `  URL printed after ${seconds(start.toUrlMs)} (CPU of the process tree so far ${start.cpuAtUrl.toFixed(1)} s;` +
        ` load average ${start.loadBefore} → ${start.loadAtUrl})`,
    );
    console.log(`  every page answered after ${seconds(start.toPagesMs)}: ${start.checked.join(", ")}\n`);

    const toPages = start.toPagesMs / 1000;
    const [todayLow, todayHigh] = TODAY.toUrlSeconds;
    console.log("figure                                  now       today (issue 26)   ratio        target");
    console.log(
      `end of npm ci → URL, pages working   ${`${toPages.toFixed(1)} s`.padStart(8)}   ${`${todayLow}–${todayHigh} s`.padStart(16)}` +
        `   ${`${(toPages / todayLow).toFixed(2)}–${(toPages / todayHigh).toFixed(2)}×`.padStart(11)}   ≤ ${TARGET.toUrlSeconds} s`,
    );
    console.log(
      `web build CPU, all five apps          ${`${build.cpu.toFixed(1)} s`.padStart(8)}   ${`${TODAY.webBuildCpuSeconds} s`.padStart(16)}` +
        `   ${`${(build.cpu / TODAY.webBuildCpuSeconds).toFixed(2)}×`.padStart(11)}   ≤ ${TARGET.webBuildCpuSeconds} s`,
    );
    const over = [
      toPages > TARGET.toUrlSeconds ? "time to URL" : "",
      build.cpu > TARGET.webBuildCpuSeconds ? "web build CPU" : "",
    ].filter(Boolean);
    if (over.length > 0) {
      console.log(`\nover target: ${over.join(", ")}`);
      process.exitCode = 1;
    }
  } finally {
    if (process.env["BENCH_KEEP"] === "1") console.log(`\nkept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

await main();
