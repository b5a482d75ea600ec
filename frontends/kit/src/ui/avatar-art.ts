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

/**
 * Each seed's image as the page shows it: its SVG as an object URL while the bitmap is drawn, then the bitmap (an
 * object URL); the SVG as a data: URI where no bitmap can be drawn (no canvas: a test's DOM).
 */
const images = new Map<string, string>();
const listeners = new Set<() => void>();

function avatarOf(seed: string): Avatar {
  return new Avatar(style, { seed, size: BITMAP_PX, backgroundColor: BACKGROUNDS });
}

/** A data: URI of the avatar generated from `seed` (a user id), as SVG. */
export function avatarDataUri(seed: string): string {
  return avatarOf(seed).toDataUri();
}

/**
 * The avatar of `seed` as the page should show it: a bitmap once drawn (an SVG image is recorded again, all its
 * shapes, every time the part of the page it is in is repainted — the chat column with a message a second — while a
 * bitmap is copied), the SVG until then. Drawing starts on the first ask; `onAvatarDrawn` tells when one is done.
 *
 * The SVG is an object URL, revoked once the bitmap is drawn, not a data: URI: Chromium keeps the images of the
 * data: URIs it decoded, and each SVG image is a document of its own (a full room's page kept about 50 of them).
 */
export function avatarImage(seed: string): string {
  const known = images.get(seed);
  if (known) return known;
  if (images.size > KEPT) {
    for (const url of images.values()) if (url.startsWith("blob:")) URL.revokeObjectURL(url);
    images.clear();
  }
  const svg = URL.createObjectURL(new Blob([avatarOf(seed).toString()], { type: "image/svg+xml" }));
  images.set(seed, svg);
  void draw(seed, svg);
  return svg;
}

/** Calls `listener` whenever an avatar's bitmap is ready; returns the unsubscribe. */
export function onAvatarDrawn(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

async function draw(seed: string, svg: string): Promise<void> {
  let bitmap: string | undefined;
  try {
    const image = new Image(BITMAP_PX, BITMAP_PX);
    image.src = svg;
    await image.decode();
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = BITMAP_PX;
    const context = canvas.getContext("2d");
    if (context) {
      context.drawImage(image, 0, 0, BITMAP_PX, BITMAP_PX);
      const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/png"));
      if (blob) bitmap = URL.createObjectURL(blob);
    }
  } catch {
    // No canvas here or the image did not decode (a test's DOM).
  }
  if (images.get(seed) !== svg) {
    // Forgotten meanwhile (the page met more than KEPT).
    if (bitmap) URL.revokeObjectURL(bitmap);
    return;
  }
  // Not drawn: the SVG stays, as a data: URI.
  images.set(seed, bitmap ?? avatarDataUri(seed));
  for (const listener of listeners) listener();
  // The images that showed the SVG switch to the bitmap as the listeners redraw them.
  URL.revokeObjectURL(svg);
}
