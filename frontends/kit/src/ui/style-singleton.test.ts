import { describe, expect, it } from "vitest";
import { stylesheetSingleton } from "./style-singleton.ts";

describe("the scroll lock's style singleton", () => {
  it("adopts one constructed stylesheet while any user holds it and injects no <style> element", () => {
    const sheet = stylesheetSingleton();
    const before = document.adoptedStyleSheets.length;
    sheet.add("body { overflow: hidden; }");
    sheet.add("body { overflow: hidden; }");
    expect(document.adoptedStyleSheets).toHaveLength(before + 1);
    expect(document.adoptedStyleSheets.at(-1)?.cssRules[0]?.cssText).toBe("body { overflow: hidden; }");
    expect(document.querySelectorAll("style")).toHaveLength(0);
    sheet.remove();
    expect(document.adoptedStyleSheets).toHaveLength(before + 1);
    sheet.remove();
    expect(document.adoptedStyleSheets).toHaveLength(before);
  });
});
