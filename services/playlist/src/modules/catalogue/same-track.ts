// 002 §5's same-track rule as a pure function: the catalogue resolves every song description through it, so a
// track is one catalogue song, and a crate holds a track once.

/** What the rule reads of a song (a crate song, a catalogue song, or a provider's description of one). */
export interface TrackKeys {
  crateSongUuid?: string;
  songId?: string;
  songShortId?: string;
  isrc?: string;
  /** Provider wire name → the song's id there. */
  musicProviders?: Record<string, string>;
  trackName?: string;
  artistName?: string;
  /** Seconds. */
  duration?: number;
}

/** Durations of the same track differ by at most this many seconds (002 §9). */
export const SAME_TRACK_DURATION_SECONDS = 5;

const same = (a: string | undefined, b: string | undefined, fold = false): boolean => {
  if (!a || !b) return false;
  return fold ? a.trim().toLowerCase() === b.trim().toLowerCase() : a === b;
};

/**
 * Whether `a` and `b` are the same track (002 §5): they share a crate song id, song id, short id or isrc (any
 * case); or an id at the same provider; or have equal track and artist names ignoring case with durations at
 * most 5 seconds apart. Empty values never match.
 */
export function isSameTrack(a: TrackKeys, b: TrackKeys): boolean {
  if (same(a.crateSongUuid, b.crateSongUuid, true)) return true;
  if (same(a.songId, b.songId, true)) return true;
  if (same(a.songShortId, b.songShortId)) return true;
  if (same(a.isrc, b.isrc, true)) return true;
  if (sharesProviderId(a.musicProviders, b.musicProviders)) return true;
  if (same(a.trackName, b.trackName, true) && same(a.artistName, b.artistName, true)) {
    return Math.abs((a.duration ?? 0) - (b.duration ?? 0)) <= SAME_TRACK_DURATION_SECONDS;
  }
  return false;
}

function sharesProviderId(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  if (!a || !b) return false;
  return Object.entries(a).some(([provider, id]) => id !== "" && b[provider] === id);
}
