// Copies an installed package and everything it depends on at run time (per package-lock.json) into another
// node_modules, so the runtime image can carry one dev tool (tsx) without the whole dev dependency tree.
// Usage: node deploy/docker/collect-package.ts <package> <target-dir>. Runs on Node 24's built-in type stripping.
import { cpSync, existsSync, readFileSync } from "node:fs";
import path from "node:path";
import process from "node:process";

interface LockEntry {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

const [name, target] = process.argv.slice(2);
if (!name || !target) throw new Error("usage: collect-package.ts <package> <target-dir>");

const lock = JSON.parse(readFileSync("package-lock.json", "utf8")) as { packages: Record<string, LockEntry> };
const seen = new Set<string>();
const queue = [`node_modules/${name}`];
while (queue.length > 0) {
  const key = queue.shift()!;
  if (seen.has(key)) continue;
  const entry = lock.packages[key];
  if (!entry) throw new Error(`${key} is not in package-lock.json`);
  seen.add(key);
  for (const dep of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies })) {
    // Node's resolution: a nested copy first, then the hoisted one.
    const nested = `${key}/node_modules/${dep}`;
    const found = lock.packages[nested] ? nested : `node_modules/${dep}`;
    // Optional dependencies for other platforms are in the lockfile but not on disk.
    if (lock.packages[found] && existsSync(found)) queue.push(found);
  }
}
for (const key of seen) cpSync(key, path.join(target, key), { recursive: true });
process.stdout.write(`collected ${[...seen].join(", ")}\n`);
