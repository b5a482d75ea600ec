// The decision records of docs/decisions/: one file a decision, `NNNN-short-title.md`, numbered in the order the
// decisions were taken, and their index in docs/decisions/README.md. `npm run docs:decisions` rewrites the index,
// `npm run docs:decisions:new` adds a record; tests/docs/decisions.test.ts holds every record to the shape below.
//
//   # NNNN. Title
//
//   - Status: Accepted | Superseded by [NNNN](NNNN-….md)[: what replaced it] | Amended by [NNNN](NNNN-….md), …
//   - Issue: the issue it came from ("not recorded" when unknown)
//   - Supersedes: / - Amends: (optional, the other direction)
//
//   ## Context
//   ## Decision
//   ## Consequences
//   ## Measurement (optional: when there are figures)
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export const decisionsDir = path.resolve(import.meta.dirname, "../docs/decisions");
export const INDEX_START = "<!-- decisions-index:start (written by `npm run docs:decisions`; do not edit by hand) -->";
export const INDEX_END = "<!-- decisions-index:end -->";

/** The sections every record has, in this order; Measurement may follow when there are figures. */
export const REQUIRED_SECTIONS = ["Context", "Decision", "Consequences"] as const;
const ALLOWED_SECTIONS = [...REQUIRED_SECTIONS, "Measurement"];

const FILE_NAME = /^(\d{4})-[a-z0-9]+(?:-[a-z0-9]+)*\.md$/;
const LINK = /\[(\d{4})\]\(([^)\s]+)\)/g;

export interface DecisionRecord {
  file: string;
  number: string;
  title: string;
  /** The status line as written, e.g. "Superseded by [0238](0238-….md): …". */
  status: string;
  issue: string;
}

export interface Problem {
  file: string;
  message: string;
}

export interface Collection {
  records: DecisionRecord[];
  problems: Problem[];
}

/** A record's number as its file name starts, or undefined for a file that is no record (README.md). */
export function numberOf(file: string): string | undefined {
  return FILE_NAME.exec(file)?.[1];
}

/** The text without HTML comments: a template's placeholders do not count as content. */
function withoutComments(text: string): string {
  return text.replace(/<!--[\s\S]*?-->/g, "").trim();
}

/** Reads every record of `dir` and checks each on its own and against the others. */
export function readRecords(dir = decisionsDir): Collection {
  const problems: Problem[] = [];
  const records: DecisionRecord[] = [];
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".md") && f !== "README.md")
    .sort();
  const byNumber = new Map<string, string[]>();
  for (const file of files) {
    const number = numberOf(file);
    if (!number) {
      problems.push({ file, message: "the file name is not NNNN-short-title.md (lower-case words joined by -)" });
      continue;
    }
    byNumber.set(number, [...(byNumber.get(number) ?? []), file]);
    const record = parseRecord(dir, file, number, readFileSync(path.join(dir, file), "utf8"), problems);
    if (record) records.push(record);
  }
  for (const [number, names] of byNumber) {
    if (names.length > 1) problems.push({ file: names.join(", "), message: `${names.length} records share ${number}` });
  }
  return { records, problems };
}

function parseRecord(
  dir: string,
  file: string,
  number: string,
  text: string,
  problems: Problem[],
): DecisionRecord | undefined {
  const fail = (message: string) => problems.push({ file, message });
  const lines = text.split("\n");
  const heading = /^# (\d{4})\. (\S.*)$/.exec(lines[0] ?? "");
  if (!heading) {
    fail('the first line is not "# NNNN. Title"');
    return undefined;
  }
  if (heading[1] !== number) fail(`the title says ${heading[1]}, the file name ${number}`);

  const meta = new Map<string, string>();
  const firstSection = lines.findIndex((l) => l.startsWith("## "));
  for (const line of lines.slice(1, firstSection === -1 ? lines.length : firstSection)) {
    const m = /^- ([A-Z][a-z]+): (.+)$/.exec(line);
    if (m) meta.set(m[1]!, m[2]!.trim());
    else if (line.trim() !== "") fail(`unexpected line before the first section: ${line}`);
  }
  const status = meta.get("Status");
  if (!status) fail('no "- Status:" line');
  else if (
    !/^Accepted$/.test(status) &&
    !/^Superseded by \[\d{4}\]\([^)]+\)(?:: .+)?$/.test(status) &&
    !/^Amended by \[\d{4}\]\([^)]+\)(?:, \[\d{4}\]\([^)]+\))*$/.test(status)
  ) {
    fail(`the status is not "Accepted", "Superseded by [NNNN](…)" or "Amended by [NNNN](…), …": ${status}`);
  }
  const issue = meta.get("Issue");
  if (!issue) fail('no "- Issue:" line (write "not recorded" when the issue is unknown)');

  const sections = [...text.matchAll(/^## (.+)$/gm)].map((m) => ({ name: m[1]!.trim(), at: m.index }));
  const names = sections.map((s) => s.name);
  for (const name of names) {
    if (!ALLOWED_SECTIONS.includes(name)) fail(`unknown section "## ${name}" (${ALLOWED_SECTIONS.join(", ")})`);
  }
  const required = names.filter((n) => (REQUIRED_SECTIONS as readonly string[]).includes(n));
  if (required.join() !== REQUIRED_SECTIONS.join()) {
    fail(`the sections are ${names.join(", ") || "missing"}; a record has ${REQUIRED_SECTIONS.join(", ")}, in order`);
  }
  sections.forEach((section, i) => {
    const end = sections[i + 1]?.at ?? text.length;
    const body = text.slice(section.at + `## ${section.name}`.length, end);
    if (withoutComments(body) === "") fail(`"## ${section.name}" is empty (or holds only the template's comment)`);
  });

  for (const m of text.matchAll(LINK)) {
    const [, target, href] = m;
    if (href!.includes("/") || href!.includes(":")) continue;
    if (numberOf(href!) !== target) fail(`the link [${target}](${href}) names another number than its file`);
    else if (!existsSync(path.join(dir, href!))) fail(`the link [${target}](${href}) points at no record`);
  }
  return { file, number, title: heading[2]!.trim(), status: status ?? "", issue: issue ?? "" };
}

/** The index table: one row a record, in number order. */
export function renderIndex(records: DecisionRecord[]): string {
  const cell = (s: string) => s.replace(/\|/g, "\\|");
  // The index shows whom a superseded record points to; what replaced it is said in the record.
  const status = (s: string) => s.replace(/^(Superseded by \[\d{4}\]\([^)]+\)):.*$/, "$1");
  const issue = (s: string) => (s === "not recorded" ? "—" : s);
  const rows = [...records]
    .sort((a, b) => a.number.localeCompare(b.number))
    .map(
      (r) => `| [${r.number}](${r.file}) | ${cell(r.title)} | ${cell(status(r.status))} | ${cell(issue(r.issue))} |`,
    );
  return ["| # | Decision | Status | Issue |", "|---|---|---|---|", ...rows].join("\n");
}

/** README.md with its index replaced by `index`; throws when the markers are missing. */
export function withIndex(readme: string, index: string): string {
  const start = readme.indexOf(INDEX_START);
  const end = readme.indexOf(INDEX_END);
  if (start === -1 || end === -1 || end < start) {
    throw new Error(`docs/decisions/README.md must hold the lines ${INDEX_START} and ${INDEX_END}`);
  }
  return `${readme.slice(0, start + INDEX_START.length)}\n${index}\n${readme.slice(end)}`;
}

/** Everything wrong with the records of `dir` and their index: an empty list when all is well. */
export function checkDecisions(dir = decisionsDir): Problem[] {
  const { records, problems } = readRecords(dir);
  const readmePath = path.join(dir, "README.md");
  if (!existsSync(readmePath)) return [...problems, { file: "README.md", message: "the index is missing" }];
  const readme = readFileSync(readmePath, "utf8");
  for (const r of records) {
    if (!readme.includes(`](${r.file})`)) problems.push({ file: r.file, message: "missing from the index" });
  }
  try {
    if (withIndex(readme, renderIndex(records)) !== readme) {
      problems.push({ file: "README.md", message: "the index is stale: run `npm run docs:decisions`" });
    }
  } catch (err) {
    problems.push({ file: "README.md", message: (err as Error).message });
  }
  return problems;
}

/** The number the next record takes: one above the highest. */
export function nextNumber(records: DecisionRecord[]): string {
  const highest = Math.max(0, ...records.map((r) => Number(r.number)));
  return String(highest + 1).padStart(4, "0");
}

/** A file name's short title: lower-case words of the title, at most 48 characters. */
export function slugOf(title: string): string {
  const words = title
    .toLowerCase()
    .replace(/[`*'’]/g, "")
    .match(/[a-z0-9]+/g) ?? ["decision"];
  let slug = "";
  for (const word of words) {
    if (slug && slug.length + word.length + 1 > 48) break;
    slug = slug ? `${slug}-${word}` : word;
  }
  return slug;
}

/** A record to write: its title, its issue and the paragraphs of each section. */
export interface Draft {
  title: string;
  issue: string;
  sections: Record<"Context" | "Decision" | "Consequences" | "Measurement", string[]>;
}

/** The sections of a file in the old docs/decisions.md form (all, or those after the one headed `after`). */
export function draftsFrom(markdown: string, after?: string): Draft[] {
  const chunks = markdown.split(/^## /m).slice(1);
  let start = 0;
  if (after) {
    start = chunks.findIndex((c) => c.split("\n", 1)[0]!.trim() === after) + 1;
    if (start === 0) throw new Error(`no section headed "## ${after}"`);
  }
  return chunks.slice(start).map((chunk) => {
    const [heading = "", ...rest] = chunk.split("\n");
    const m = /^Issue (\d+):\s*(.+)$/.exec(heading.trim());
    const topic = (m ? m[2]! : heading).trim();
    const draft: Draft = {
      title: topic.charAt(0).toUpperCase() + topic.slice(1),
      issue: m ? m[1]! : "not recorded",
      sections: { Context: [], Decision: [], Consequences: [], Measurement: [] },
    };
    let current: keyof Draft["sections"] = "Decision";
    for (const paragraph of rest.join("\n").split(/\n\s*\n/)) {
      let text = paragraph.trim();
      if (!text) continue;
      const lead = /^(?:- )?\*\*(Context|Decision|Consequences|Measurement)[.:]?\*\*[.:]?\s*/.exec(text);
      if (lead) {
        current = lead[1] as keyof Draft["sections"];
        text = text.slice(lead[0].length);
      }
      if (text) draft.sections[current].push(text);
    }
    return draft;
  });
}
