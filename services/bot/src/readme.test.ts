// The README's bot is the example the end-to-end test runs (tests/e2e/bot-kit.e2e.test.ts): the same code, line
// for line, so the README never shows a bot that does not compile or work.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const dir = path.join(import.meta.dirname, "..");

describe("the bot kit's README", () => {
  it("shows the example bot as it is, within 30 lines", () => {
    const readme = readFileSync(path.join(dir, "README.md"), "utf8");
    const shown = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    const example = readFileSync(path.join(dir, "src/examples/hello-dj.ts"), "utf8");
    // The file's own header comment and its command-line start are not part of the bot.
    const bot = example.slice(example.indexOf("import "), example.indexOf("\nif (import.meta.main)") + 1);
    expect(shown).toBe(bot.trimEnd() + "\n");
    expect(bot.trimEnd().split("\n").length).toBeLessThanOrEqual(30);
  });
});
