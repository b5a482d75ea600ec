import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  NAME_CONTRAST,
  NAME_SURFACES,
  contrastRatio,
  nameColorStyle,
  nameContrast,
  parseHexColor,
  readableNameColor,
} from "./name-color.ts";

describe("contrastRatio", () => {
  it.each([
    ["#000000", "#ffffff", 21],
    ["#ffffff", "#ffffff", 1],
    // WCAG's own example values: #767676 is the lightest grey with 4.5:1 on white.
    ["#767676", "#ffffff", 4.54],
  ])("%s on %s is %d:1", (a, b, ratio) => {
    expect(contrastRatio(parseHexColor(a)!, parseHexColor(b)!)).toBeCloseTo(ratio, 2);
  });
});

describe("readableNameColor", () => {
  // The colour as chosen → as drawn in the dark theme and the light one.
  it.each([
    // Readable in one theme, too dark (or too light) in the other: only that theme's is moved.
    ["#1a1a1a", "#8d8d8d", "#1a1a1a"],
    ["#000000", "#8d8d8d", "#000000"],
    ["#ffff00", "#ffff00", "#6f6f00"],
    ["#ffffff", "#ffffff", "#6b6b6b"],
    ["#0000ff", "#7e7eff", "#0000ff"],
    ["#7c3aed", "#a273f2", "#7c3aed"],
    // The Edit profile dialog's colours.
    ["#ef4444", "#f15858", "#d61212"],
    ["#f97316", "#f97316", "#b34c05"],
    ["#eab308", "#eab308", "#866705"],
    ["#22c55e", "#22c55e", "#157b3b"],
    ["#14b8a6", "#14b8a6", "#0d786d"],
    ["#3b82f6", "#488bf7", "#0b61ee"],
    ["#a855f7", "#b269f8", "#942ef5"],
    ["#ec4899", "#ed519e", "#ce1571"],
    // Written otherwise, the same colour.
    ["#FFF", "#ffffff", "#6b6b6b"],
    [" #EAB308 ", "#eab308", "#866705"],
  ])("%s is drawn %s on dark and %s on light", (chosen, dark, light) => {
    expect(readableNameColor(chosen, "dark")).toBe(dark);
    expect(readableNameColor(chosen, "light")).toBe(light);
    for (const [theme, drawn] of [
      ["dark", dark],
      ["light", light],
    ] as const) {
      expect(nameContrast(parseHexColor(drawn)!, theme)).toBeGreaterThanOrEqual(NAME_CONTRAST);
    }
  });

  it.each(["", "red", "#12345", "#1234567", "rgb(0 0 0)", "#gggggg"])(
    "has no colour for %j (the default colour is drawn)",
    (chosen) => {
      expect(readableNameColor(chosen, "dark")).toBeUndefined();
      expect(readableNameColor(chosen, "light")).toBeUndefined();
      expect(nameColorStyle(chosen)).toBeUndefined();
    },
  );

  it("gives both themes' colours as the custom properties tokens.css picks from", () => {
    expect(nameColorStyle("#1a1a1a")).toEqual({ "--tt-name-dark": "#8d8d8d", "--tt-name-light": "#1a1a1a" });
  });

  it("reaches AA on every theme's surfaces for a spread of colours", () => {
    for (let r = 0; r <= 255; r += 51) {
      for (let g = 0; g <= 255; g += 51) {
        for (let b = 0; b <= 255; b += 51) {
          const chosen = `#${[r, g, b].map((c) => c.toString(16).padStart(2, "0")).join("")}`;
          for (const theme of ["dark", "light"] as const) {
            const drawn = readableNameColor(chosen, theme)!;
            expect(nameContrast(parseHexColor(drawn)!, theme), `${chosen} on ${theme}`).toBeGreaterThanOrEqual(
              NAME_CONTRAST,
            );
          }
        }
      }
    }
  });
});

describe("NAME_SURFACES", () => {
  // The surfaces are tokens.css's colours, written here as numbers: a change of the tokens must be made here too.
  const tokens = readFileSync(resolve(dirname(fileURLToPath(import.meta.url)), "../tokens.css"), "utf8");
  const block = (selector: string) => {
    const start = tokens.indexOf(`${selector} {`);
    return tokens.slice(start, tokens.indexOf("}", start));
  };
  const token = (css: string, name: string) => new RegExp(`--tt-color-${name}: ([^;]+);`).exec(css)?.[1];
  const rgbOf = (value: string) =>
    parseHexColor(value) ??
    (/^rgb\((\d+) (\d+) (\d+) \/ (\d+)%\)$/.exec(value)?.slice(1, 4).map(Number) as [number, number, number]);
  const alphaOf = (value: string) => Number(/\/ (\d+)%\)$/.exec(value)?.[1]) / 100;

  it.each([
    ["dark", ":root"],
    ["light", ':root[data-theme="light"]'],
  ] as const)("are the %s theme's bg, surface, surface-2 and accent-soft over the surface", (theme, selector) => {
    const css = block(selector);
    const surface = rgbOf(token(css, "surface")!);
    const soft = token(css, "accent-soft")!;
    const tint = rgbOf(soft).map((c, i) => Math.round(c * alphaOf(soft) + surface[i]! * (1 - alphaOf(soft))));
    expect(NAME_SURFACES[theme]).toEqual([rgbOf(token(css, "bg")!), surface, rgbOf(token(css, "surface-2")!), tint]);
  });
});
