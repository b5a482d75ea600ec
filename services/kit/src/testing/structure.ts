// The shape every service package keeps (docs/new-service.md), as problems a test can list: a reader finds any REST
// path's handler under src/routes, its entity in a file of its own, and nothing of another package reached by a
// relative path. Run for every service of the platform's catalogue (services/platform/src/structure.test.ts).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/** What a service package must hold, relative to its folder. */
const REQUIRED = [
  "README.md",
  "src/index.ts",
  "src/main.ts",
  "src/config.ts",
  "src/entities.ts",
  "src/migrations",
  "src/routes/index.ts",
];
/** Tools live beside src (bench/, scripts/), never in it. */
const TOOL_FOLDERS = new Set(["bench", "benches", "check", "checks", "scripts", "tools"]);
const IMPORT = /(?:^|[\s;])(?:import|export)\s[^;]*?\sfrom\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? (name === "node_modules" ? [] : walk(file)) : [file];
  });
}

const isSource = (file: string) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file) && !file.endsWith(".d.ts");

/** The module specifiers a source file imports (static, re-exports and dynamic). */
function importsOf(source: string): string[] {
  return [...source.matchAll(IMPORT)].map((m) => m[1] ?? m[2]!);
}

/** Every way the service package in `dir` differs from the template; empty when it keeps the shape. */
export function serviceStructureProblems(dir: string): string[] {
  const problems: string[] = [];
  const rel = (file: string) => path.relative(dir, file);
  for (const required of REQUIRED) {
    if (!existsSync(path.join(dir, required))) problems.push(`${required} is missing`);
  }
  const src = path.join(dir, "src");
  if (!existsSync(src)) return problems;
  const files = walk(src);

  for (const file of files) {
    const parts = rel(file).split(path.sep);
    const tool = parts.slice(1, -1).find((part) => TOOL_FOLDERS.has(part));
    if (tool) problems.push(`${rel(file)}: a tool inside src (${tool}/ belongs beside src)`);
  }

  // Routes: every proto service's handlers are a routes/<area>.ts that routes/index.ts reaches.
  const routesDir = path.join(src, "routes");
  const index = path.join(routesDir, "index.ts");
  if (existsSync(index)) {
    const reached = new Set<string>();
    const visit = (file: string) => {
      if (reached.has(file) || !existsSync(file)) return;
      reached.add(file);
      for (const spec of importsOf(readFileSync(file, "utf8"))) {
        if (!spec.startsWith(".")) continue;
        const target = path.resolve(path.dirname(file), spec);
        if (target.startsWith(routesDir + path.sep)) visit(target);
      }
    };
    visit(index);
    for (const file of files.filter((f) => f.startsWith(routesDir + path.sep) && isSource(f))) {
      if (!reached.has(file)) problems.push(`${rel(file)}: not reached from src/routes/index.ts`);
    }
  }
  for (const file of files.filter(isSource)) {
    if (file.startsWith(routesDir + path.sep)) continue;
    if (/(^|[-.])routes\.tsx?$/.test(path.basename(file))) {
      problems.push(`${rel(file)}: handlers outside src/routes (a routes/<area>.ts registered in routes/index.ts)`);
    }
  }

  for (const file of files.filter(isSource)) {
    const source = readFileSync(file, "utf8");
    // Entities: one a file, named after it.
    const entities = source.match(/\bdefineEntity\(/g)?.length ?? 0;
    if (entities > 0 && !file.endsWith(".entity.ts"))
      problems.push(`${rel(file)}: an entity outside a *.entity.ts file`);
    if (entities > 1) problems.push(`${rel(file)}: ${entities} entities in one file (one a file)`);
    // Boundaries: another package is reached by its name and what it exports, never by a relative path.
    for (const spec of importsOf(source)) {
      if (!spec.startsWith(".")) continue;
      const target = path.resolve(path.dirname(file), spec);
      if (!target.startsWith(dir + path.sep)) problems.push(`${rel(file)}: imports ${spec}, outside its package`);
    }
  }
  return problems;
}
