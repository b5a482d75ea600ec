// The decision records of docs/decisions/ (one file a decision) and their index, docs/decisions/README.md: every
// record has its title, status, issue and sections, no two share a number, every status and link points at a record,
// and the index is the one `npm run docs:decisions` writes. The checks themselves are tried on a scratch copy.
import { cpSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  checkDecisions,
  decisionsDir,
  draftsFrom,
  readRecords,
  renderIndex,
  withIndex,
} from "../../scripts/decisions.ts";

const copies: string[] = [];

/** A scratch copy of docs/decisions/ to break on purpose. */
function copy(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "tt-decisions-"));
  copies.push(dir);
  cpSync(decisionsDir, dir, { recursive: true });
  return dir;
}

function edit(dir: string, file: string, from: string | RegExp, to: string): void {
  const full = path.join(dir, file);
  const text = readFileSync(full, "utf8");
  expect(text, `${file} holds the text to change`).toMatch(from);
  writeFileSync(full, text.replace(from, to));
}

const messages = (dir: string) => checkDecisions(dir).map((p) => `${p.file}: ${p.message}`);

afterEach(() => {
  for (const dir of copies.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("docs/decisions", () => {
  it("has well-formed records and an index that is up to date", () => {
    expect(messages(decisionsDir)).toEqual([]);
    const { records } = readRecords();
    expect(records.length).toBeGreaterThan(300);
    const numbers = records.map((r) => Number(r.number));
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
  });

  it("names the records it supersedes or amends, and each of those names it back", () => {
    const text = (file: string) => readFileSync(path.join(decisionsDir, file), "utf8");
    for (const r of readRecords().records) {
      const later = [...r.status.matchAll(/\[(\d{4})\]\(([^)]+)\)/g)].map((m) => m[2]!);
      const word = r.status.startsWith("Superseded") ? "Supersedes" : "Amends";
      for (const file of later) {
        expect(text(file), `${file} names ${r.file} under ${word}`).toMatch(
          new RegExp(`^- ${word}: .*\\]\\(${r.file.replace(/\./g, "\\.")}\\)`, "m"),
        );
      }
    }
  });

  it("finds a record left out of the index, and a stale index", () => {
    const dir = copy();
    const readme = readFileSync(path.join(dir, "README.md"), "utf8");
    writeFileSync(path.join(dir, "README.md"), readme.replace(/^\| \[0002\].*\n/m, ""));
    expect(messages(dir)).toEqual([
      "0002-generated-code-is-not-committed.md: missing from the index",
      "README.md: the index is stale: run `npm run docs:decisions`",
    ]);
    edit(dir, "0003-enumerations-on-the-wire-are-strings.md", "# 0003. Enumerations", "# 0003. Enums");
    writeFileSync(path.join(dir, "README.md"), withIndex(readme, renderIndex(readRecords(dir).records)));
    expect(messages(dir)).toEqual([]);
  });

  it("finds a record without its sections, status or issue", () => {
    const dir = copy();
    const file = "0005-logout-exists.md";
    edit(dir, file, "## Consequences", "## Afterwards");
    edit(dir, file, /^- Issue: .*\n/m, "");
    edit(dir, file, "- Status: Accepted", "- Status: Probably");
    expect(messages(dir)).toEqual([
      `${file}: the status is not "Accepted", "Superseded by [NNNN](…)" or "Amended by [NNNN](…), …": Probably`,
      `${file}: no "- Issue:" line (write "not recorded" when the issue is unknown)`,
      `${file}: unknown section "## Afterwards" (Context, Decision, Consequences, Measurement)`,
      `${file}: the sections are Context, Decision, Afterwards; a record has Context, Decision, Consequences, in order`,
      "README.md: the index is stale: run `npm run docs:decisions`",
    ]);
  });

  it("finds a section that holds only the template's comment", () => {
    const dir = copy();
    const file = "0005-logout-exists.md";
    edit(dir, file, /## Context\n\n[^#]*/, "## Context\n\n<!-- What prompted it. -->\n\n");
    expect(messages(dir)).toEqual([`${file}: "## Context" is empty (or holds only the template's comment)`]);
  });

  it("finds two records with one number, and a title that disagrees with its file", () => {
    const dir = copy();
    const twin = "0005-a-second-logout.md";
    cpSync(path.join(dir, "0005-logout-exists.md"), path.join(dir, twin));
    writeFileSync(
      path.join(dir, "README.md"),
      withIndex(readFileSync(path.join(dir, "README.md"), "utf8"), renderIndex(readRecords(dir).records)),
    );
    expect(messages(dir)).toEqual([`0005-a-second-logout.md, 0005-logout-exists.md: 2 records share 0005`]);
    renameSync(path.join(dir, twin), path.join(dir, "0400-a-second-logout.md"));
    expect(messages(dir)).toContain("0400-a-second-logout.md: the title says 0005, the file name 0400");
  });

  it("finds a status or a link that points at no record", () => {
    const dir = copy();
    const superseded = readdirSync(dir).find((f) =>
      readFileSync(path.join(dir, f), "utf8").includes("- Status: Superseded by"),
    )!;
    expect(superseded).toBeDefined();
    const target = /- Status: Superseded by \[(\d{4})\]\(([^)]+)\)/.exec(
      readFileSync(path.join(dir, superseded), "utf8"),
    )!;
    rmSync(path.join(dir, target[2]!));
    const problems = messages(dir);
    expect(problems).toContain(`${superseded}: the link [${target[1]}](${target[2]}) points at no record`);
    edit(
      dir,
      "0005-logout-exists.md",
      "- Status: Accepted",
      "- Status: Amended by [0007](0008-get-auth-pub-key-and-jwks.md)",
    );
    expect(messages(dir)).toContain(
      "0005-logout-exists.md: the link [0007](0008-get-auth-pub-key-and-jwks.md) names another number than its file",
    );
  });
});

describe("npm run docs:decisions:new --from", () => {
  it("turns each section of the old docs/decisions.md form after a heading into a draft", () => {
    const old = [
      "# Decisions the specification leaves open",
      "",
      "## Issue 28: unreachable means unavailable",
      "",
      "Already converted.",
      "",
      "## Issue 28: the new thing",
      "",
      "**Context.** Something was slow.",
      "",
      "**Decision.** Make it fast.",
      "",
      "It stays fast.",
      "",
      "**Consequences.** Nothing else.",
      "",
      "## Suite health",
      "",
      "One paragraph.",
    ].join("\n");
    expect(draftsFrom(old, "Issue 28: unreachable means unavailable")).toEqual([
      {
        title: "The new thing",
        issue: "28",
        sections: {
          Context: ["Something was slow."],
          Decision: ["Make it fast.", "It stays fast."],
          Consequences: ["Nothing else."],
          Measurement: [],
        },
      },
      {
        title: "Suite health",
        issue: "not recorded",
        sections: { Context: [], Decision: ["One paragraph."], Consequences: [], Measurement: [] },
      },
    ]);
  });
});
