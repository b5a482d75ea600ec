// SoundCloud (spec 002 §7): the public catalogue with the app's token — GET /tracks/{id} (optional
// secret_token), /tracks/{id}/streams, /tracks with q, offset, linked_partitioning, limit — and the user's
// private tracks (/me/tracks) with their own token, filtered by name case-insensitively (§5). SoundCloud
// answers 403 (not only 401) for a refused token: refresh once on either (§8).
import { requestJson } from "@tt/providers";
import { withToken, type TokenSource } from "./token-source.ts";
import { arr, rec, seconds, str, urlOf, yearOf, type ProviderSearchPage, type ProviderTrack } from "./track.ts";

export const SOUNDCLOUD_REFUSED = [401, 403] as const;

export interface SoundCloudStreams {
  http?: string;
  hls?: string;
  preview?: string;
}

export interface SoundCloudPublic {
  getTrack(id: string, secretToken?: string): Promise<ProviderTrack | undefined>;
  streams(id: string): Promise<SoundCloudStreams>;
  /** A track's permalink (https://soundcloud.com/artist/track) → its id; undefined when unknown. */
  resolve(url: string): Promise<string | undefined>;
  /** Needs a non-empty term (§5). */
  search(term: string, offset: number, limit: number): Promise<ProviderSearchPage>;
}

export interface SoundCloudPrivate {
  /** The user's own tracks whose title or artist contains `filter` (any case); login needed. */
  myTracks(user: TokenSource, filter: string, limit: number): Promise<ProviderTrack[]>;
}

export interface HttpSoundCloudOptions {
  /** https://api.soundcloud.com */
  apiBaseUrl: string;
  app: TokenSource;
  timeoutMs: number;
}

export function soundCloudTrack(raw: unknown, provider = "soundCloudPublic"): ProviderTrack | undefined {
  const t = rec(raw);
  const id = str(t.id);
  const title = str(t.title);
  if (id === undefined || title === undefined) return undefined;
  const user = rec(t.user);
  const track: ProviderTrack = {
    provider,
    providerId: id,
    trackName: title,
    artistName: str(rec(t.publisher_metadata).artist) ?? str(user.username) ?? "",
    duration: seconds(t.duration ?? t.full_duration),
    explicit: rec(t.publisher_metadata).explicit === true,
    previews: [],
  };
  const isrc = str(t.isrc) ?? str(rec(t.publisher_metadata).isrc);
  if (isrc !== undefined) track.isrc = isrc.toUpperCase();
  const art = str(t.artwork_url) ?? str(user.avatar_url);
  if (art !== undefined) track.thumbnail = art.replace("-large.", "-t300x300.");
  const link = str(t.permalink_url);
  if (link !== undefined) track.link = link;
  const genre = str(t.genre);
  if (genre !== undefined) track.genre = genre;
  const year = yearOf(t.release_date ?? t.created_at);
  if (year !== undefined) track.releaseYear = year;
  return track;
}

export function createHttpSoundCloud(options: HttpSoundCloudOptions): SoundCloudPublic & SoundCloudPrivate {
  const get = (source: TokenSource, url: URL) =>
    withToken(
      source,
      (token) =>
        requestJson({
          provider: "soundcloud",
          method: "GET",
          url,
          headers: { authorization: `OAuth ${token}` },
          timeoutMs: options.timeoutMs,
        }),
      SOUNDCLOUD_REFUSED,
    );
  const api = (path: string, query?: Record<string, string | number | undefined>) =>
    urlOf(options.apiBaseUrl, path, query);
  return {
    async getTrack(id, secretToken) {
      try {
        return soundCloudTrack(
          await get(options.app, api(`/tracks/${encodeURIComponent(id)}`, { secret_token: secretToken })),
        );
      } catch (error) {
        if ((error as { status?: number }).status === 404) return undefined;
        throw error;
      }
    },
    async resolve(url) {
      try {
        const body = rec(await get(options.app, api("/resolve", { url })));
        return body.kind === undefined || body.kind === "track" ? str(body.id) : undefined;
      } catch (error) {
        if ((error as { status?: number }).status === 404) return undefined;
        throw error;
      }
    },
    async streams(id) {
      const body = rec(await get(options.app, api(`/tracks/${encodeURIComponent(id)}/streams`)));
      const streams: SoundCloudStreams = {};
      const http = str(body.http_mp3_128_url);
      if (http !== undefined) streams.http = http;
      const hls = str(body.hls_aac_160_url) ?? str(body.hls_mp3_128_url);
      if (hls !== undefined) streams.hls = hls;
      const preview = str(body.preview_mp3_128_url);
      if (preview !== undefined) streams.preview = preview;
      return streams;
    },
    async search(term, offset, limit) {
      if (term.trim() === "") return { tracks: [] };
      const body = rec(await get(options.app, api("/tracks", { q: term, offset, linked_partitioning: "true", limit })));
      // With linked_partitioning the answer is { collection, next_href }.
      const tracks = arr(body.collection)
        .map((t) => soundCloudTrack(t))
        .filter((t): t is ProviderTrack => t !== undefined);
      const page: ProviderSearchPage = { tracks };
      if (str(body.next_href) !== undefined) page.nextOffset = offset + tracks.length;
      return page;
    },
    async myTracks(user, filter, limit) {
      const body = rec(await get(user, api("/me/tracks", { linked_partitioning: "true", limit: 200 })));
      const needle = filter.trim().toLowerCase();
      return arr(body.collection)
        .map((t) => soundCloudTrack(t, "soundcloud"))
        .filter((t): t is ProviderTrack => t !== undefined)
        .filter(
          (t) =>
            needle === "" || t.trackName.toLowerCase().includes(needle) || t.artistName.toLowerCase().includes(needle),
        )
        .slice(0, limit);
    },
  };
}
