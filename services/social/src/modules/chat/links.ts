// Links in chat (specification 002 §5): a link is a music link only when its host contains one of the provider
// names (the kit's MUSIC_LINK_HOSTS); it becomes a song card when the playlist service resolves it to a song with an
// isrc. A crate link is our own web app's page of a crate, `<web origin>/crates/<crateUuid>` (the crates app is
// mounted at /crates by the shell; docs/decisions/0235-chat-crate-previews.md); the first one of a message becomes its
// playlist preview.
import { isMusicLinkHost } from "@tt/providers";

/** At most this many links of one message are resolved (each is a call to the playlist service). */
export const MAX_RESOLVED_LINKS = 3;

const URL_PATTERN = /\bhttps?:\/\/[^\s<>"']+/gi;

/** The http(s) URLs in a text, in order, trailing punctuation left out, duplicates once. */
export function linksIn(text: string): URL[] {
  const out: URL[] = [];
  const seen = new Set<string>();
  for (const match of text.matchAll(URL_PATTERN)) {
    const raw = match[0].replace(/[).,;:!?\]]+$/, "");
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      continue;
    }
    if (seen.has(url.href)) continue;
    seen.add(url.href);
    out.push(url);
  }
  return out;
}

/** Whether a link's host names a music provider (002 §5). */
export function isMusicLink(url: URL): boolean {
  return isMusicLinkHost(url.hostname);
}

/** The music links of a text that are worth resolving, at most MAX_RESOLVED_LINKS. */
export function musicLinksIn(text: string): URL[] {
  return linksIn(text).filter(isMusicLink).slice(0, MAX_RESOLVED_LINKS);
}

/** A crate's page in the web app: /crates/<uuid>, a trailing slash allowed (query and fragment are ignored). */
const CRATE_PATH = /^\/crates\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/?$/i;

/**
 * The crate uuid of the first crate link of a text, or undefined. `origins`: our web app's origins (scheme, host and
 * port, as URL.origin spells them); empty, a crate path on any origin counts (development, tests).
 */
export function crateLinkIn(text: string, origins: readonly string[]): string | undefined {
  for (const url of linksIn(text)) {
    if (origins.length > 0 && !origins.includes(url.origin)) continue;
    const match = CRATE_PATH.exec(url.pathname);
    if (match) return match[1]!.toLowerCase();
  }
  return undefined;
}
