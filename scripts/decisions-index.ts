// Writes the index of docs/decisions/README.md from the records beside it (`npm run docs:decisions`), or, with
// --check, only says what is wrong: a malformed record, two records with one number, a status pointing at no
// record, a stale index. Exits 1 when anything is.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { checkDecisions, decisionsDir, readRecords, renderIndex, withIndex } from "./decisions.ts";

const check = process.argv.includes("--check");
const readmePath = path.join(decisionsDir, "README.md");

if (!check) {
  const { records } = readRecords();
  const readme = readFileSync(readmePath, "utf8");
  const next = withIndex(readme, renderIndex(records));
  if (next !== readme) writeFileSync(readmePath, next);
  console.log(`docs/decisions/README.md: ${records.length} records${next === readme ? ", unchanged" : ""}`);
}
const problems = checkDecisions();
for (const p of problems) console.error(`docs/decisions/${p.file}: ${p.message}`);
process.exitCode = problems.length ? 1 : 0;
