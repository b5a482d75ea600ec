// Apple Music API (spec 002 §7, §9): GET /v1/catalog/{storefront}/songs/{id}, songs by filter[isrc], search
// with limit 25 and types=songs, include=playParams, storefront `us` by default; a catalogue playlist's
// tracks for imports and a library playlist (the user's Music User Token) for exports. Every call carries
// the developer token; on 401 it is refreshed once (§8).
import { requestJson } from "@tt/providers";
import { withToken, type TokenSource } from "./token-source.ts";
import { arr, rec, seconds, str, urlOf, yearOf, type ProviderSearchPage, type ProviderTrack } from "./track.ts";

export const APPLE_SEARCH_LIMIT = 25;
export const DEFAULT_APPLE_STOREFRONT = "us";

export interface AppleMusicCatalog {
  getSong(id: string, storefront?: string): Promise<ProviderTrack | undefined>;
  songByIsrc(isrc: string, storefront?: string): Promise<ProviderTrack | undefined>;
  search(term: string, offset: number, storefront?: string): Promise<ProviderSearchPage>;
  playlistTracks(id: string, max: number, storefront?: string): Promise<{ name: string; tracks: ProviderTrack[] }>;
  /** A playlist in the user's library with these catalogue songs. */
  createLibraryPlaylist(musicUserToken: string, name: string, songIds: string[]): Promise<{ id: string }>;
}

export interface HttpAppleMusicOptions {
  /** https://api.music.apple.com */
  apiBaseUrl: string;
  developer: TokenSource;
  timeoutMs: number;
}

/** Replaces `{w}x{h}` in Apple's artwork template with a square size. */
function artwork(raw: unknown, size = 256): string | undefined {
  const url = str(rec(raw).url);
  return url?.replace("{w}", String(size)).replace("{h}", String(size));
}

export function appleSong(raw: unknown): ProviderTrack | undefined {
  const song = rec(raw);
  const a = rec(song.attributes);
  const id = str(song.id);
  const name = str(a.name);
  if (id === undefined || name === undefined) return undefined;
  const track: ProviderTrack = {
    provider: "apple",
    providerId: id,
    trackName: name,
    artistName: str(a.artistName) ?? "",
    duration: seconds(a.durationInMillis),
    explicit: a.contentRating === "explicit",
    previews: arr(a.previews)
      .map((p) => str(rec(p).url))
      .filter((p): p is string => p !== undefined),
  };
  const isrc = str(a.isrc);
  if (isrc !== undefined) track.isrc = isrc.toUpperCase();
  const album = str(a.albumName);
  if (album !== undefined) track.albumName = album;
  const thumbnail = artwork(a.artwork);
  if (thumbnail !== undefined) track.thumbnail = thumbnail;
  const link = str(a.url);
  if (link !== undefined) track.link = link;
  const genre = str(arr(a.genreNames)[0]);
  if (genre !== undefined) track.genre = genre;
  const year = yearOf(a.releaseDate);
  if (year !== undefined) track.releaseYear = year;
  return track;
}

export function createHttpAppleMusic(options: HttpAppleMusicOptions): AppleMusicCatalog {
  const sf = (storefront?: string) => encodeURIComponent((storefront || DEFAULT_APPLE_STOREFRONT).toLowerCase());
  const get = (url: URL, headers: Record<string, string> = {}) =>
    withToken(options.developer, (token) =>
      requestJson({
        provider: "apple-music",
        method: "GET",
        url,
        headers: { authorization: `Bearer ${token}`, ...headers },
        timeoutMs: options.timeoutMs,
      }),
    );
  const songs = (body: unknown) =>
    arr(rec(body).data)
      .map(appleSong)
      .filter((t): t is ProviderTrack => t !== undefined);
  return {
    async getSong(id, storefront) {
      try {
        const body = await get(
          urlOf(options.apiBaseUrl, `/v1/catalog/${sf(storefront)}/songs/${encodeURIComponent(id)}`, {
            include: "playParams",
          }),
        );
        return songs(body)[0];
      } catch (error) {
        if ((error as { status?: number }).status === 404) return undefined;
        throw error;
      }
    },
    async songByIsrc(isrc, storefront) {
      const body = await get(
        urlOf(options.apiBaseUrl, `/v1/catalog/${sf(storefront)}/songs`, {
          "filter[isrc]": isrc,
          include: "playParams",
        }),
      );
      return songs(body)[0];
    },
    async search(term, offset, storefront) {
      const body = await get(
        urlOf(options.apiBaseUrl, `/v1/catalog/${sf(storefront)}/search`, {
          term,
          types: "songs",
          limit: APPLE_SEARCH_LIMIT,
          offset,
          include: "playParams",
        }),
      );
      const result = rec(rec(rec(body).results).songs);
      const tracks = songs(result);
      const page: ProviderSearchPage = { tracks };
      if (str(result.next) !== undefined) page.nextOffset = offset + tracks.length;
      return page;
    },
    async playlistTracks(id, max, storefront) {
      const body = await get(
        urlOf(options.apiBaseUrl, `/v1/catalog/${sf(storefront)}/playlists/${encodeURIComponent(id)}`, {
          include: "tracks",
        }),
      );
      const playlist = rec(arr(rec(body).data)[0]);
      const tracks = songs(rec(rec(playlist.relationships).tracks)).slice(0, max);
      return { name: str(rec(playlist.attributes).name) ?? "", tracks };
    },
    async createLibraryPlaylist(musicUserToken, name, songIds) {
      const body = await withToken(options.developer, (token) =>
        requestJson({
          provider: "apple-music",
          method: "POST",
          url: urlOf(options.apiBaseUrl, "/v1/me/library/playlists"),
          headers: { authorization: `Bearer ${token}`, "music-user-token": musicUserToken },
          json: {
            attributes: { name },
            relationships: { tracks: { data: songIds.map((id) => ({ id, type: "songs" })) } },
          },
          timeoutMs: options.timeoutMs,
        }),
      );
      return { id: str(rec(arr(rec(body).data)[0]).id) ?? "" };
    },
  };
}
