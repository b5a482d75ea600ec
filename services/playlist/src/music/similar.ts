// Spec 002 §9: up to 8 songs of a crate get suggestions; suggestions are deduped by track and artist (any
// case) and kept only with a thumbnail and a duration above 0.
export const SIMILAR_SOURCE_SONGS = 8;

export interface SuggestionLike {
  trackName: string;
  artistName: string;
  duration: number;
  thumbnail?: string | undefined;
}

export function keepSuggestions<T extends SuggestionLike>(
  candidates: readonly T[],
  exclude: readonly SuggestionLike[] = [],
): T[] {
  const key = (s: SuggestionLike) => `${s.trackName.trim().toLowerCase()}\u0000${s.artistName.trim().toLowerCase()}`;
  const seen = new Set(exclude.map(key));
  const kept: T[] = [];
  for (const candidate of candidates) {
    if (!candidate.thumbnail || !(candidate.duration > 0)) continue;
    const k = key(candidate);
    if (seen.has(k)) continue;
    seen.add(k);
    kept.push(candidate);
  }
  return kept;
}
