// The generated default avatar (a lazy chunk): DiceBear's "Lorelei" style, CC0 1.0 (Lisa Wischofsky, remixed by
// DiceBear), drawn as SVG in the page from the user's id, so the same person looks the same everywhere and
// nothing is fetched from outside.
import { Avatar, Style } from "@dicebear/core";
import lorelei from "@dicebear/styles/lorelei.json" with { type: "json" };

const style = new Style(lorelei);
const BACKGROUNDS = ["b6e3f4", "c0aede", "d1d4f9", "ffd5dc", "ffdfbf", "c1f0d0", "f9e2ae"];
/** The avatars kept at most (a page that has met more starts again). */
const KEPT = 2000;
/** The bitmap's side in pixels: the largest avatar (96 px) on a 2× screen would want more; 128 keeps it sharp. */
const BITMAP_PX = 128;

const svgs = new Map<string, string>();
/** Each seed's bitmap (an object URL), once drawn; null while it is being drawn or when it cannot be. */
const bitmaps = new Map<string, string | null>();
const listeners = new Set<() => void>();

/** A data: URI of the avatar generated from `seed` (a user id), as SVG. */
export function avatarDataUri(seed: string): string {
  let uri = svgs.get(seed);
  if (uri === undefined) {
    uri = new Avatar(style, { seed, size: BITMAP_PX, backgroundColor: BACKGROUNDS }).toDataUri();
    if (svgs.size > KEPT) svgs.clear();
    svgs.set(seed, uri);
  }
  return uri;
}

/**
 * The avatar of `seed` as the page should show it: a bitmap once drawn (an SVG image is recorded again, all its
 * shapes, every time the part of the page it is in is repainted — the chat column with a message a second — while a
 * bitmap is copied), the SVG until then. Drawing starts on the first ask; `onAvatarDrawn` tells when one is done.
 */
export function avatarImage(seed: string): string {
  const bitmap = bitmaps.get(seed);
  if (bitmap) return bitmap;
  const svg = avatarDataUri(seed);
  if (bitmap === undefined) void draw(seed, svg);
  return svg;
}

/** Calls `listener` whenever an avatar's bitmap is ready; returns the unsubscribe. */
export function onAvatarDrawn(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

async function draw(seed: string, svg: string): Promise<void> {
  bitmaps.set(seed, null);
  try {
    const image = new Image(BITMAP_PX, BITMAP_PX);
    image.src = svg;
    await image.decode();
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = BITMAP_PX;
    const context = canvas.getContext("2d");
    if (!context) return;
    context.drawImage(image, 0, 0, BITMAP_PX, BITMAP_PX);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/png"));
    if (!blob) return;
    if (bitmaps.size > KEPT) {
      for (const url of bitmaps.values()) if (url) URL.revokeObjectURL(url);
      bitmaps.clear();
    }
    bitmaps.set(seed, URL.createObjectURL(blob));
    for (const listener of listeners) listener();
  } catch {
    // No canvas here (a test's DOM) or the image did not decode: the SVG stays.
  }
}
