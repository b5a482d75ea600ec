// The generated avatars are painted on a canvas by the web kit's own SVG painter (frontends/kit/src/ui/paint-svg.ts),
// not decoded as SVG images (each of those is a document of its own in the page). This checks, in the run's
// Chromium, that the painter draws what Chromium draws from the same SVG: DiceBear's avatars for many seeds, every
// one of them with a mask among them, painted both ways at the size the page uses and compared pixel by pixel.
import { readFileSync } from "node:fs";
import { stripTypeScriptTypes } from "node:module";
import { Avatar, Style } from "@dicebear/core";
import lorelei from "@dicebear/styles/lorelei.json" with { type: "json" };
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as Painter from "../../frontends/kit/src/ui/paint-svg.ts";
import { sharedBrowser } from "./support/web.ts";

const SIZE = 128;
const BACKGROUNDS = ["b6e3f4", "c0aede", "d1d4f9", "ffd5dc", "ffdfbf", "c1f0d0", "f9e2ae"];

/** The painter as a classic script that leaves `parseSvg` and `paintSvg` on `window.__paint`. */
function painterScript(): string {
  const source = readFileSync(new URL("../../frontends/kit/src/ui/paint-svg.ts", import.meta.url), "utf8");
  return `(() => {${stripTypeScriptTypes(source).replace(/^export /gm, "")}\nwindow.__paint = { parseSvg, paintSvg };})()`;
}

/** Avatars of seeds in turn: the first `plain` without a mask and every one with a mask met among the first 600. */
function avatars(plain: number): string[] {
  const style = new Style(lorelei);
  const all = Array.from({ length: 600 }, (_, i) =>
    new Avatar(style, { seed: `seed-${i}`, size: SIZE, backgroundColor: BACKGROUNDS }).toString(),
  );
  return [
    ...all.filter((svg) => !svg.includes("<mask")).slice(0, plain),
    ...all.filter((svg) => svg.includes("<mask")),
  ];
}

describe("the avatar painter", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await sharedBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("paints DiceBear's avatars as Chromium draws their SVG, masks included", async () => {
    const svgs = avatars(60);
    expect(svgs.filter((svg) => svg.includes("<mask")).length).toBeGreaterThan(10);
    const page = await browser.newPage();
    try {
      await page.setContent(
        '<!doctype html><html lang="en"><title>Avatar painter</title><main><h1>Avatars</h1></main>',
      );
      await page.evaluate(painterScript());
      const differences = await page.evaluate(
        async ({ svgs, size }) => {
          const { parseSvg, paintSvg } = (window as unknown as { __paint: typeof Painter }).__paint;
          const pixels = (draw: (context: CanvasRenderingContext2D) => void) => {
            const canvas = document.createElement("canvas");
            canvas.width = canvas.height = size;
            const context = canvas.getContext("2d")!;
            draw(context);
            return context.getImageData(0, 0, size, size).data;
          };
          const out: { mean: number; far: number }[] = [];
          for (const svg of svgs) {
            const url = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
            const image = new Image(size, size);
            image.src = url;
            await image.decode();
            const decoded = pixels((context) => context.drawImage(image, 0, 0, size, size));
            URL.revokeObjectURL(url);
            const painted = pixels((context) => paintSvg(context, parseSvg(svg), size));
            let sum = 0;
            let far = 0;
            for (let i = 0; i < decoded.length; i++) {
              const d = Math.abs(decoded[i]! - painted[i]!);
              sum += d;
              if (d > 64) far += 1;
            }
            out.push({ mean: sum / decoded.length, far });
          }
          return out;
        },
        { svgs, size: SIZE },
      );
      expect(differences).toHaveLength(svgs.length);
      // Edges may be antialiased a little differently; no shape may be missing, moved or of another colour.
      for (const [i, { mean, far }] of differences.entries()) {
        expect({ avatar: i, mean: mean < 0.5, far }).toEqual({ avatar: i, mean: true, far: 0 });
      }
    } finally {
      await page.close();
    }
  });
});
