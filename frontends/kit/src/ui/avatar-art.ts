// The generated default avatar (a lazy chunk): DiceBear's "Lorelei" style, CC0 1.0 (Lisa Wischofsky, remixed by
// DiceBear), drawn as SVG in the page from the user's id, so the same person looks the same everywhere and
// nothing is fetched from outside.
import { Avatar, Style } from "@dicebear/core";
import lorelei from "@dicebear/styles/lorelei.json" with { type: "json" };

const style = new Style(lorelei);
const BACKGROUNDS = ["b6e3f4", "c0aede", "d1d4f9", "ffd5dc", "ffdfbf", "c1f0d0", "f9e2ae"];
const cache = new Map<string, string>();

/** A data: URI of the avatar generated from `seed` (a user id). */
export function avatarDataUri(seed: string): string {
  let uri = cache.get(seed);
  if (uri === undefined) {
    uri = new Avatar(style, { seed, size: 128, backgroundColor: BACKGROUNDS }).toDataUri();
    if (cache.size > 2000) cache.clear();
    cache.set(seed, uri);
  }
  return uri;
}
