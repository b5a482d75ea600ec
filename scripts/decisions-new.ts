// Adds decision records to docs/decisions/ under the next free numbers, then rewrites the index.
//
//   npm run docs:decisions:new -- "Short title" [--issue N] [--supersedes NNNN] [--amends NNNN[,NNNN]]
//     One record from the template; its Context, Decision and Consequences hold only the template's comments, which
//     tests/docs/decisions.test.ts refuses until they are written. --supersedes marks the older record "Superseded
//     by" the new one, --amends "Amended by" it, and the new record names them back.
//
//   npm run docs:decisions:new -- --from <file.md> [--after "<heading>"]
//     A record for every "## <heading>" section of a file written the way docs/decisions.md was (before it became
//     this folder), after the section headed <heading> (by default the last one converted, LAST_CONVERTED). The
//     title and issue come from "## Issue N: topic"; paragraphs led by **Context.**, **Decision.**,
//     **Consequences.** or **Measurement.** go to those sections, every other paragraph to Decision. Read each
//     record afterwards: split what holds several decisions, fill what is empty, mark what it supersedes.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import {
  decisionsDir,
  draftsFrom,
  nextNumber,
  numberOf,
  readRecords,
  renderIndex,
  slugOf,
  withIndex,
  type Draft,
} from "./decisions.ts";

/** The last section of docs/decisions.md that became a record here; later ones were written after the split. */
const LAST_CONVERTED = "Issue 28: unreachable means unavailable";

const PLACEHOLDER = {
  Context: "<!-- What prompted it: the problem, the constraint, what the specification leaves open. -->",
  Decision: "<!-- What was decided, in the code's own names, values and limits. -->",
  Consequences: "<!-- What follows: the price, what it rules out, what was left alone and why. -->",
};

function render(number: string, draft: Draft, links: string[]): string {
  const body = (name: keyof Draft["sections"]) => draft.sections[name].join("\n\n");
  const parts = [`# ${number}. ${draft.title}`, "", "- Status: Accepted", `- Issue: ${draft.issue}`, ...links];
  for (const name of ["Context", "Decision", "Consequences"] as const) {
    parts.push("", `## ${name}`, "", body(name) || PLACEHOLDER[name]);
  }
  if (draft.sections.Measurement.length) parts.push("", "## Measurement", "", body("Measurement"));
  return `${parts.join("\n")}\n`;
}

function setStatus(file: string, status: (current: string) => string | undefined): void {
  const full = path.join(decisionsDir, file);
  const text = readFileSync(full, "utf8");
  const next = text.replace(/^- Status: (.+)$/m, (line, current: string) => {
    const changed = status(current);
    return changed ? `- Status: ${changed}` : line;
  });
  writeFileSync(full, next);
}

function main(): void {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      issue: { type: "string" },
      supersedes: { type: "string" },
      amends: { type: "string" },
      from: { type: "string" },
      after: { type: "string" },
    },
  });
  const { records, problems } = readRecords();
  // Said, not refused: a record still being written (its template comments) must not stop the next one.
  for (const p of problems) console.error(`warning: docs/decisions/${p.file}: ${p.message}`);
  const fileOf = (n: string) => {
    const r = records.find((x) => x.number === n.padStart(4, "0"));
    if (!r) throw new Error(`no record ${n}`);
    return r;
  };

  let drafts: Draft[];
  if (values.from) {
    drafts = draftsFrom(readFileSync(values.from, "utf8"), values.after ?? LAST_CONVERTED);
    if (!drafts.length) throw new Error(`no "## " section in ${values.from} after "${values.after ?? LAST_CONVERTED}"`);
  } else {
    const title = positionals.join(" ").trim();
    if (!title) throw new Error('usage: npm run docs:decisions:new -- "Short title" [--issue N] (or --from <file.md>)');
    const empty = { Context: [], Decision: [], Consequences: [], Measurement: [] };
    drafts = [{ title, issue: values.issue ?? "not recorded", sections: empty }];
  }

  let number = nextNumber(records);
  const created: string[] = [];
  for (const draft of drafts) {
    const file = `${number}-${slugOf(draft.title)}.md`;
    const link = `[${number}](${file})`;
    const links: string[] = [];
    if (values.supersedes && drafts.length === 1) {
      const old = fileOf(values.supersedes);
      setStatus(old.file, () => `Superseded by ${link}`);
      links.push(`- Supersedes: [${old.number}](${old.file})`);
    }
    if (values.amends && drafts.length === 1) {
      const olds = values.amends.split(",").map((n) => fileOf(n.trim()));
      for (const old of olds) {
        setStatus(old.file, (current) =>
          current === "Accepted"
            ? `Amended by ${link}`
            : current.startsWith("Amended by")
              ? `${current}, ${link}`
              : undefined,
        );
      }
      links.push(`- Amends: ${olds.map((o) => `[${o.number}](${o.file})`).join(", ")}`);
    }
    writeFileSync(path.join(decisionsDir, file), render(number, draft, links));
    created.push(file);
    number = String(Number(number) + 1).padStart(4, "0");
  }

  const after = readRecords();
  const readmePath = path.join(decisionsDir, "README.md");
  writeFileSync(readmePath, withIndex(readFileSync(readmePath, "utf8"), renderIndex(after.records)));
  for (const file of created) console.log(`docs/decisions/${file}`);
  const unfinished = created.filter(
    (f) => numberOf(f) && readFileSync(path.join(decisionsDir, f), "utf8").includes("<!--"),
  );
  if (unfinished.length)
    console.log(`${unfinished.length} of them still hold the template's comments: write those sections.`);
}

main();
