import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// @tt/web-kit/connect is a federation shared module of its own: whatever it imports by a relative path is bundled
// into it. The shell's sign-up page once got the shop remote's copy of it, whose bundled KitProvider was a second
// React context: "useKit must be used inside <KitProvider>". What holds page state must come through the package.
// The same holds for every other entry of its own (ui, form, virtual, table, chart, sortable): the toast queue and
// the theme live in the kit's root module, and a bundled copy of them would be a second queue nobody shows.
describe.each(["connect", "ui", "form", "virtual", "table", "chart", "sortable"])("@tt/web-kit/%s", (entry) => {
  it("regression: takes the kit's page state (KitProvider, toasts, theme) from the package, never a bundled copy", () => {
    const dir = path.join(import.meta.dirname, "..", entry);
    const offenders = readdirSync(dir)
      .filter((name) => /\.tsx?$/.test(name) && !name.includes(".test."))
      .filter((name) =>
        /from "\.\.\/(KitProvider|toast|theme|i18n|kit)(\.tsx?)?"/.test(readFileSync(path.join(dir, name), "utf8")),
      );
    expect(offenders).toEqual([]);
  });
});
