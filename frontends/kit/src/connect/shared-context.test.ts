import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// @tt/web-kit/connect is a federation shared module of its own: whatever it imports by a relative path is bundled
// into it. The shell's sign-up page once got the shop remote's copy of it, whose bundled KitProvider was a second
// React context: "useKit must be used inside <KitProvider>". What holds page state must come through the package.
describe("@tt/web-kit/connect", () => {
  it("regression: takes the kit's React context (KitProvider) from the package, never a bundled copy", () => {
    const dir = import.meta.dirname;
    const offenders = readdirSync(dir)
      .filter((name) => /\.tsx?$/.test(name) && !name.includes(".test."))
      .filter((name) => /from "\.\.\/KitProvider(\.tsx)?"/.test(readFileSync(path.join(dir, name), "utf8")));
    expect(offenders).toEqual([]);
  });
});
