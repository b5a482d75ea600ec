// Spec 002 §5: a link is recognised only when its host contains one of these names; it must then resolve
// to a song with an isrc (the names: @tt/providers' MUSIC_LINK_HOSTS). A playlist link is resolved only when it matches a
// crate (playlist) pattern.
import { isMusicLinkHost } from "@tt/providers";

export interface ParsedLink {
  /** The provider's wire name (tt.common.v1.MusicProvider). */
  provider: string;
  /** The provider's id, or for SoundCloud the permalink URL to resolve. */
  id: string;
  storefront?: string;
}

function urlOf(link: string): URL | undefined {
  const text = link.trim();
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`);
  } catch {
    return undefined;
  }
}

/** True when the link's host contains one of §5's names. */
export function isRecognisedLink(link: string): boolean {
  if (/^spotify:(track|playlist):[A-Za-z0-9]+$/.test(link.trim())) return true;
  const url = urlOf(link);
  if (url === undefined || !/^https?:$/.test(url.protocol)) return false;
  return isMusicLinkHost(url.hostname);
}

/** A song link → provider and id, for the providers this service can read; undefined otherwise. */
export function parseSongLink(link: string): ParsedLink | undefined {
  const uri = /^spotify:track:([A-Za-z0-9]+)$/.exec(link.trim());
  if (uri?.[1]) return { provider: "spotify", id: uri[1] };
  if (!isRecognisedLink(link)) return undefined;
  const url = urlOf(link) as URL;
  const host = url.hostname.toLowerCase();
  const parts = url.pathname.split("/").filter(Boolean);
  if (host.includes("spotify")) {
    const at = parts.indexOf("track");
    const id = at >= 0 ? parts[at + 1] : undefined;
    return id && /^[A-Za-z0-9]+$/.test(id) ? { provider: "spotify", id } : undefined;
  }
  if (host.includes("apple")) {
    const storefront = parts[0] && /^[a-z]{2}$/.test(parts[0]) ? parts[0] : "us";
    const songId = url.searchParams.get("i") ?? (parts.includes("song") ? parts.at(-1) : undefined);
    return songId && /^\d+$/.test(songId) ? { provider: "apple", id: songId, storefront } : undefined;
  }
  if (host.includes("soundcloud")) {
    if (host.startsWith("api.") && parts[0] === "tracks" && parts[1] && /^\d+$/.test(parts[1])) {
      return { provider: "soundCloudPublic", id: parts[1] };
    }
    return parts.length >= 2 && parts[1] !== "sets" ? { provider: "soundCloudPublic", id: url.toString() } : undefined;
  }
  if (host.includes("audius")) {
    return parts.length >= 2 ? { provider: "audius", id: url.pathname } : undefined;
  }
  if (host.includes("youtu")) {
    const id = host.includes("youtu.be") ? parts[0] : (url.searchParams.get("v") ?? undefined);
    return id && /^[A-Za-z0-9_-]{6,20}$/.test(id) ? { provider: "youtube", id } : undefined;
  }
  return undefined;
}

/** A playlist link → provider and playlist id (the "crate pattern"); undefined when it is not one. */
export function parsePlaylistLink(link: string): ParsedLink | undefined {
  const uri = /^spotify:playlist:([A-Za-z0-9]+)$/.exec(link.trim());
  if (uri?.[1]) return { provider: "spotify", id: uri[1] };
  if (!isRecognisedLink(link)) return undefined;
  const url = urlOf(link) as URL;
  const host = url.hostname.toLowerCase();
  const parts = url.pathname.split("/").filter(Boolean);
  if (host.includes("spotify")) {
    const at = parts.indexOf("playlist");
    const id = at >= 0 ? parts[at + 1] : undefined;
    return id && /^[A-Za-z0-9]+$/.test(id) ? { provider: "spotify", id } : undefined;
  }
  if (host.includes("apple") && parts.includes("playlist")) {
    const id = parts.at(-1);
    const storefront = parts[0] && /^[a-z]{2}$/.test(parts[0]) ? parts[0] : "us";
    return id && /^pl\.[A-Za-z0-9-]+$/.test(id) ? { provider: "apple", id, storefront } : undefined;
  }
  return undefined;
}
