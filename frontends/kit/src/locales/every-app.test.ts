import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { SUPPORTED_LANGUAGES } from "../i18n.ts";

// Issue 26: every locale resource of every web app (shell, room, crates, shop, admin and this kit) has the same keys
// in English and in Spanish. The files are found by what they define (a `const es`), so a new screen's strings are
// checked without being listed here.

const FRONTENDS = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const PLURAL = /_(zero|one|two|few|many|other)$/;

type Tree = Record<string, unknown>;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The source files that define Spanish strings: `const es = …` (typed `typeof en` or not). */
function localeFiles(): string[] {
  const apps = readdirSync(FRONTENDS, { withFileTypes: true }).filter((entry) => entry.isDirectory());
  return apps
    .flatMap((app) => {
      try {
        return sourceFiles(join(FRONTENDS, app.name, "src"));
      } catch {
        return [];
      }
    })
    .filter((file) => /\bconst es\b/.test(readFileSync(file, "utf8")))
    .sort();
}

const isTree = (value: unknown): value is Tree => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The key paths of a resource. A plural family (`songs_one`, `songs_other`…) counts as one key, `songs#plural`:
 * each language has the forms its own rules need (English one/other; Spanish one/many/other, where the kit falls
 * back to `_other` for a form a table leaves out), so only the family's presence is compared, and each family must
 * have its `_other`.
 */
function keysOf(tree: Tree, prefix = ""): { keys: Set<string>; problems: string[] } {
  const keys = new Set<string>();
  const problems: string[] = [];
  const families = new Map<string, Set<string>>();
  for (const [name, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${name}` : name;
    if (isTree(value)) {
      const inner = keysOf(value, path);
      for (const key of inner.keys) keys.add(key);
      problems.push(...inner.problems);
      continue;
    }
    if (typeof value !== "string") {
      problems.push(`${path} is not a string`);
      continue;
    }
    const plural = PLURAL.exec(name);
    if (plural) {
      const base = path.slice(0, -plural[0].length);
      const forms = families.get(base) ?? new Set<string>();
      forms.add(plural[1] ?? "");
      families.set(base, forms);
    } else keys.add(path);
  }
  for (const [base, forms] of families) {
    keys.add(`${base}#plural`);
    if (!forms.has("other")) problems.push(`${base} has no _other form`);
  }
  return { keys, problems };
}

interface Resource {
  name: string;
  byLanguage: Record<string, Tree>;
}

/** The en/es pairs a locale file exports: `en` and `es` (or `es` beside ./en.ts), or a `{ en, es }` object. */
async function resourcesOf(file: string): Promise<Resource[]> {
  const module = (await import(/* @vite-ignore */ file)) as Record<string, unknown>;
  const name = relative(FRONTENDS, file);
  const found: Resource[] = [];
  for (const [exported, value] of Object.entries(module)) {
    if (isTree(value) && SUPPORTED_LANGUAGES.every((language) => isTree(value[language]))) {
      found.push({ name: `${name} ${exported}`, byLanguage: value as Record<string, Tree> });
    }
  }
  if (found.length === 0 && isTree(module["es"])) {
    const en = module["en"] ?? ((await import(/* @vite-ignore */ join(dirname(file), "en.ts"))) as Tree)["en"];
    if (isTree(en)) found.push({ name, byLanguage: { en, es: module["es"] } });
  }
  return found;
}

/** What differs between a resource's languages, in words; empty when they have the same keys. */
function differences(resource: Resource): string[] {
  const problems: string[] = [];
  const [first, ...others] = SUPPORTED_LANGUAGES.map((language) => {
    const walked = keysOf(resource.byLanguage[language] ?? {});
    problems.push(...walked.problems.map((problem) => `${resource.name} (${language}): ${problem}`));
    return { language, keys: walked.keys };
  });
  for (const other of others) {
    if (!first) continue;
    for (const key of first.keys) {
      if (!other.keys.has(key)) problems.push(`${resource.name}: ${key} missing in ${other.language}`);
    }
    for (const key of other.keys) {
      if (!first.keys.has(key)) problems.push(`${resource.name}: ${key} missing in ${first.language}`);
    }
  }
  return problems;
}

describe("the key comparison", () => {
  it("names a nested key missing in one language, and compares plural families by their name", () => {
    const en = { a: { b: "B", c: "C" }, songs_one: "{{count}} song", songs_other: "{{count}} songs", d: "D" };
    const es = { a: { b: "B" }, songs_one: "{{count}} canción", songs_many: "{{count}} de canciones", e: "E" };
    expect(differences({ name: "x", byLanguage: { en, es } })).toEqual([
      "x (es): songs has no _other form",
      "x: a.c missing in es",
      "x: d missing in es",
      "x: e missing in en",
    ]);
    const esPlurals = { ...en, songs_many: "{{count}} de canciones" };
    expect(differences({ name: "x", byLanguage: { en, es: esPlurals } })).toEqual([]);
  });
});

describe("every app's strings in every language (issue 26)", () => {
  const files = localeFiles();

  it("finds the locale files of every app", () => {
    const apps = new Set(files.map((file) => relative(FRONTENDS, file).split("/")[0]));
    expect([...apps].sort()).toEqual(["admin", "crates", "kit", "room", "shell", "shop"]);
  });

  it.each(files.map((file) => [relative(FRONTENDS, file), file]))(
    "%s: the same keys in English and Spanish",
    async (_name, file) => {
      const resources = await resourcesOf(file);
      // A file that defines Spanish strings exports them, or this test cannot see them.
      expect(resources.length, "exports its en and es strings").toBeGreaterThan(0);
      expect(resources.flatMap(differences)).toEqual([]);
    },
  );
});
