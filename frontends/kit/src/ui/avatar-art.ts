// The generated default avatar (a lazy chunk): DiceBear's "Lorelei" style, CC0 1.0 (Lisa Wischofsky, remixed by
// DiceBear), generated as SVG in the page from the user's id and painted as a bitmap, so the same person looks the
// same everywhere and nothing is fetched from outside.
import { Avatar, Style } from "@dicebear/core";
import lorelei from "@dicebear/styles/lorelei.json" with { type: "json" };
import { paintSvg, parseSvg } from "./paint-svg.ts";

const style = new Style(lorelei);
const BACKGROUNDS = ["b6e3f4", "c0aede", "d1d4f9", "ffd5dc", "ffdfbf", "c1f0d0", "f9e2ae"];
/** The avatars kept at most (a page that has met more starts again). */
const KEPT = 2000;
/** The bitmap's side in pixels: the largest avatar (96 px) on a 2× screen would want more; 128 keeps it sharp. */
const BITMAP_PX = 128;

/** Each seed's image as the page shows it: the bitmap (an object URL), or the SVG as a data: URI where none is drawn. */
const images = new Map<string, string>();
/** The seeds asked for and not drawn yet, in the order asked. */
const waiting = new Set<string>();
let drawing = false;
/** Avatars painted in one task before the page is told (one render of the avatars shown for all of them). */
const BATCH = 16;
const listeners = new Set<() => void>();
/** The canvas every bitmap is painted on in turn (toBlob copies it at once). */
let canvas: HTMLCanvasElement | undefined;

function avatarOf(seed: string): Avatar {
  return new Avatar(style, { seed, size: BITMAP_PX, backgroundColor: BACKGROUNDS });
}

/** A data: URI of the avatar generated from `seed` (a user id), as SVG. */
export function avatarDataUri(seed: string): string {
  return avatarOf(seed).toDataUri();
}

/**
 * The avatar of `seed` as the page should show it once drawn, or undefined until then (the caller shows a
 * placeholder): a bitmap, not the SVG. An SVG image is recorded again, all its shapes, every time the part of the
 * page it is in is repainted (the chat column with a message a second), while a bitmap is copied; and each SVG image
 * is a document of its own in the page (paint-svg.ts). Drawing starts on the first ask; `onAvatarDrawn` tells when
 * some are done.
 */
export function avatarImage(seed: string): string | undefined {
  const known = images.get(seed);
  if (known) return known;
  if (!waiting.has(seed)) {
    waiting.add(seed);
    if (!drawing) void drawWaiting();
  }
  return undefined;
}

/** Calls `listener` whenever avatars' bitmaps are ready; returns the unsubscribe. */
export function onAvatarDrawn(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

async function drawWaiting(): Promise<void> {
  drawing = true;
  try {
    while (waiting.size > 0) {
      const batch: string[] = [];
      for (const seed of waiting) if (batch.push(seed) === BATCH) break;
      for (const seed of batch) waiting.delete(seed);
      const drawn = await Promise.all(batch.map(async (seed) => [seed, await bitmapOf(seed)] as const));
      if (images.size + drawn.length > KEPT) {
        // The page met more than KEPT: it starts again (the ones on screen are drawn again as they are asked for).
        for (const url of images.values()) if (url.startsWith("blob:")) URL.revokeObjectURL(url);
        images.clear();
      }
      // Not drawn (no canvas: a test's DOM): the SVG, as a data: URI.
      for (const [seed, bitmap] of drawn) images.set(seed, bitmap ?? avatarDataUri(seed));
      for (const listener of listeners) listener();
    }
  } finally {
    drawing = false;
  }
}

/** The avatar of `seed` as a PNG object URL, or undefined where the page cannot draw one. */
async function bitmapOf(seed: string): Promise<string | undefined> {
  canvas ??= document.createElement("canvas");
  // Painted and copied (toBlob) in one go, before any other avatar is painted on the same canvas.
  canvas.width = canvas.height = BITMAP_PX;
  const context = canvas.getContext("2d");
  if (!context) return undefined;
  const svg = avatarOf(seed).toString();
  try {
    paintSvg(context, parseSvg(svg), BITMAP_PX);
    return await pngOf(canvas);
  } catch {
    // Outside what paintSvg paints (a DiceBear release that writes more of SVG): decoded as an image instead.
    return await decoded(svg);
  }
}

function pngOf(from: HTMLCanvasElement): Promise<string | undefined> {
  return new Promise((resolve) => from.toBlob((blob) => resolve(blob ? URL.createObjectURL(blob) : undefined)));
}

/** The SVG decoded as an image and drawn on a canvas of its own (the shared one is not waited for). */
async function decoded(svg: string): Promise<string | undefined> {
  const url = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
  try {
    const image = new Image(BITMAP_PX, BITMAP_PX);
    image.src = url;
    await image.decode();
    const own = document.createElement("canvas");
    own.width = own.height = BITMAP_PX;
    own.getContext("2d")?.drawImage(image, 0, 0, BITMAP_PX, BITMAP_PX);
    return await pngOf(own);
  } catch {
    return undefined;
  } finally {
    URL.revokeObjectURL(url);
  }
}
