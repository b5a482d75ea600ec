import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { APPS, resolveDistRoot } from "./paths.ts";

export interface BuildOptions {
  distRoot?: string;
  /** Which apps; all five by default. */
  apps?: readonly string[];
  /** Build even when the output looks current. */
  force?: boolean;
  log?: (line: string) => void;
}

export interface BuildResult {
  built: string[];
  upToDate: string[];
}

// Written after a successful build; its time is "when this dist was made from its sources".
const STAMP = ".build-stamp";
const SKIP_DIRS = new Set(["node_modules", "dist", ".git"]);

function newestMtime(target: string): number {
  if (!existsSync(target)) return 0;
  const stats = statSync(target);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(target, { withFileTypes: true })) {
    if (SKIP_DIRS.has(entry.name)) continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry.name)));
  }
  return newest;
}

/** Everything an app's bundle is made from: its package, the kit (bundled into every app) and the protos. */
function sourcesOf(root: string, app: string): string[] {
  const dir = path.join(root, app);
  return [
    path.join(dir, "src"),
    path.join(dir, "package.json"),
    path.join(dir, "webpack.config.cjs"),
    path.join(root, "kit"),
    path.join(root, "..", "proto", "gen"),
  ];
}

function isStale(root: string, app: string): boolean {
  const stamp = path.join(root, app, "dist", STAMP);
  if (!existsSync(stamp)) return true;
  const built = statSync(stamp).mtimeMs;
  return sourcesOf(root, app).some((source) => newestMtime(source) > built);
}

/** Builds the apps in one webpack process (build-apps.cjs): the configurations load once, and the apps interleave. */
function runBuild(root: string, apps: readonly string[], log: (line: string) => void): Promise<void> {
  const runner = path.join(import.meta.dirname, "build-apps.cjs");
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [runner, ...apps.map((app) => path.join(root, app))], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NODE_ENV: "production" },
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) {
        reject(new Error(`webpack build of ${apps.join(", ")} failed (exit ${code}):\n${output.trim()}`));
        return;
      }
      const now = new Date().toISOString();
      for (const app of apps) writeFileSync(path.join(root, app, "dist", STAMP), now);
      log(`built ${apps.join(", ")}`);
      resolve();
    });
  });
}

/**
 * Builds the shell and the remotes whose sources are newer than their last build (webpack, production), all in one
 * webpack process, so that `npm start` serves current frontends without rebuilding every time.
 */
export async function buildFrontendsIfStale(options: BuildOptions = {}): Promise<BuildResult> {
  const root = resolveDistRoot(options.distRoot);
  const log = options.log ?? (() => undefined);
  const apps = options.apps ?? APPS;
  const stale = apps.filter((app) => options.force || isStale(root, app));
  const upToDate = apps.filter((app) => !stale.includes(app));
  if (stale.length > 0) {
    log(`building ${stale.join(", ")}…`);
    await runBuild(root, stale, log);
  }
  return { built: stale, upToDate };
}

/** A build of the web apps started in the background, as `npm start` runs it. */
export interface WebBuild {
  /** True while the build runs: the apps' dist folders may be missing or half written. */
  building(): boolean;
  /** True once every app built (or was already current); false while building and after a failure. */
  ready(): boolean;
  /** Settles when the build ends; rejects with webpack's output when an app failed to build. */
  done: Promise<BuildResult>;
}

/**
 * Starts buildFrontendsIfStale and tracks it, so that the start command can announce its URL, and /readyz
 * say ready, only once every page works (issue 9 defect 13), and the frontend handler can answer "being
 * built" instead of serving a shell whose remotes are not there yet.
 */
export function startWebBuild(options: BuildOptions = {}): WebBuild {
  let state: "building" | "ready" | "failed" = "building";
  const done = buildFrontendsIfStale(options).then(
    (result) => {
      state = "ready";
      return result;
    },
    (err: unknown) => {
      state = "failed";
      throw err;
    },
  );
  // The caller may look only at ready(); a failure must still not be an unhandled rejection.
  done.catch(() => undefined);
  return { building: () => state === "building", ready: () => state === "ready", done };
}
