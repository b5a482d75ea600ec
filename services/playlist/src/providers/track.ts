// What every provider client answers with: one track in the provider's own terms, mapped to the crate-song
// fields of spec 002 §3 (trackName, artistName, duration in seconds, isrc, explicit, thumbnails, links,
// previews, genre, albumName, releaseYear). The service turns it into a catalogue song.

/** A provider's wire name (tt.common.v1.MusicProvider): spotify, apple, soundCloudPublic, sevenDigital, … */
export type ProviderWireName = string;

export interface ProviderTrack {
  provider: ProviderWireName;
  /** The provider's own id of the track (Spotify base62, Apple catalogue id, SoundCloud numeric, …). */
  providerId: string;
  trackName: string;
  artistName: string;
  albumName?: string;
  isrc?: string;
  /** Seconds, rounded; 0 when the provider does not say. */
  duration: number;
  explicit: boolean;
  thumbnail?: string;
  /** The track's public page. */
  link?: string;
  previews: string[];
  genre?: string;
  releaseYear?: number;
  /** Other providers' ids the provider told us about (e.g. a catalogue's spotify id). */
  otherIds?: Record<string, string>;
}

/** A page of search results of one provider. */
export interface ProviderSearchPage {
  tracks: ProviderTrack[];
  /** Where the next page starts, when the provider says there is one. */
  nextOffset?: number;
}

export function seconds(ms: unknown): number {
  return typeof ms === "number" && Number.isFinite(ms) && ms > 0 ? Math.round(ms / 1000) : 0;
}

export function yearOf(date: unknown): number | undefined {
  if (typeof date !== "string") return undefined;
  const year = Number.parseInt(date.slice(0, 4), 10);
  return Number.isInteger(year) && year > 0 ? year : undefined;
}

export function str(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : typeof value === "number" ? String(value) : undefined;
}

export function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function rec(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Builds `<base><path>?<query>`, leaving out undefined query values. */
export function urlOf(base: string, path: string, query: Record<string, string | number | undefined> = {}): URL {
  const url = new URL(`${base}${path}`);
  for (const [key, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(key, String(value));
  return url;
}
