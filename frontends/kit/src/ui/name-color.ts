// A listener's name colour (their profile's `color`, "#rrggbb", "" for the default) as it may be drawn: readable on
// the surfaces a name sits on in each theme. A colour that would not reach WCAG AA (4.5:1, normal text) on one of
// them has its HSL lightness moved just far enough (lighter in the dark theme, darker in the light one), keeping its
// hue and saturation; a colour that is readable already is drawn as chosen.
import type { CSSProperties } from "react";

export type NameTheme = "dark" | "light";

/** WCAG 2 AA for normal text: a name is small bold text, not large text. */
export const NAME_CONTRAST = 4.5;

type Rgb = readonly [number, number, number];

/** `top` at `alpha` over `base`: what a translucent tint looks like where it is drawn. */
function over(top: Rgb, alpha: number, base: Rgb): Rgb {
  return [0, 1, 2].map((i) => Math.round(top[i]! * alpha + base[i]! * (1 - alpha))) as unknown as Rgb;
}

/**
 * The surfaces a name is drawn on, per theme: tokens.css's --tt-color-bg, -surface (cards, the chat), -surface-2
 * (a chat row under the pointer or focus) and --tt-color-accent-soft over the surface (a chat row that mentions the
 * reader). name-color.test.ts checks these against tokens.css.
 */
export const NAME_SURFACES: Record<NameTheme, readonly Rgb[]> = {
  dark: [[0x0d, 0x0b, 0x12], [0x16, 0x13, 0x1d], [0x1f, 0x1b, 0x29], over([139, 92, 246], 0.18, [0x16, 0x13, 0x1d])],
  light: [[0xf6, 0xf5, 0xfa], [0xff, 0xff, 0xff], [0xf0, 0xee, 0xf6], over([109, 40, 217], 0.1, [0xff, 0xff, 0xff])],
};

/** "#rrggbb" or "#rgb" (any case, spaces around) as red, green, blue; undefined for anything else. */
export function parseHexColor(color: string): Rgb | undefined {
  const hex = color.trim().toLowerCase();
  const long = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/.exec(hex);
  if (long) return [parseInt(long[1]!, 16), parseInt(long[2]!, 16), parseInt(long[3]!, 16)];
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/.exec(hex);
  if (short)
    return [
      parseInt(short[1]! + short[1]!, 16),
      parseInt(short[2]! + short[2]!, 16),
      parseInt(short[3]! + short[3]!, 16),
    ];
  return undefined;
}

const toHex = (rgb: Rgb) => `#${rgb.map((c) => c.toString(16).padStart(2, "0")).join("")}`;

/** WCAG 2 relative luminance of an sRGB colour. */
function luminance(rgb: Rgb): number {
  const [r, g, b] = rgb.map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio of two colours (1 to 21). */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The lowest contrast of `rgb` against the theme's surfaces. */
export function nameContrast(rgb: Rgb, theme: NameTheme): number {
  return Math.min(...NAME_SURFACES[theme].map((surface) => contrastRatio(rgb, surface)));
}

function toHsl([r, g, b]: Rgb): [number, number, number] {
  const [rs, gs, bs] = [r / 255, g / 255, b / 255];
  const max = Math.max(rs, gs, bs);
  const min = Math.min(rs, gs, bs);
  const l = (max + min) / 2;
  if (max === min) return [0, 0, l];
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  const h = max === rs ? (gs - bs) / d + (gs < bs ? 6 : 0) : max === gs ? (bs - rs) / d + 2 : (rs - gs) / d + 4;
  return [h / 6, s, l];
}

function fromHsl(h: number, s: number, l: number): Rgb {
  const channel = (n: number) => {
    const k = (n + h * 12) % 12;
    const a = s * Math.min(l, 1 - l);
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [channel(0), channel(8), channel(4)];
}

/**
 * The colour to draw a name in on the theme's surfaces: the chosen one when it is readable on all of them, else the
 * same hue and saturation at the nearest lightness that is (towards white on dark, towards black on light; the
 * luminance grows with HSL lightness, so a binary search finds it). Undefined for "" and anything not a hex colour:
 * the default colour then.
 */
export function readableNameColor(color: string, theme: NameTheme): string | undefined {
  const rgb = parseHexColor(color);
  if (!rgb) return undefined;
  if (nameContrast(rgb, theme) >= NAME_CONTRAST) return toHex(rgb);
  const [h, s, l] = toHsl(rgb);
  const passes = (lightness: number) => nameContrast(fromHsl(h, s, lightness), theme) >= NAME_CONTRAST;
  // The bound that passes (white, or black) and the one that does not (the colour as chosen), moved closer.
  let good = theme === "dark" ? 1 : 0;
  let bad = l;
  for (let step = 0; step < 24; step++) {
    const mid = (good + bad) / 2;
    if (passes(mid)) good = mid;
    else bad = mid;
  }
  return toHex(fromHsl(h, s, good));
}

/** The styles already worked out, by colour (a chat draws the same few colours on many rows). */
const styles = new Map<string, CSSProperties | undefined>();
const STYLES_KEPT = 512;

/**
 * What a name element needs to be drawn in the listener's colour (with the kit's class tt-name-color): the colour
 * for each theme as custom properties, which tokens.css picks by the page's theme. Undefined for the default. The
 * same object for the same colour.
 */
export function nameColorStyle(color: string): CSSProperties | undefined {
  if (styles.has(color)) return styles.get(color);
  const dark = readableNameColor(color, "dark");
  const light = readableNameColor(color, "light");
  const style = dark && light ? ({ "--tt-name-dark": dark, "--tt-name-light": light } as CSSProperties) : undefined;
  if (styles.size >= STYLES_KEPT) styles.clear();
  styles.set(color, style);
  return style;
}
