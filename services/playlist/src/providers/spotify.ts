// Spotify Web API (spec 002 §7): GET /v1/tracks/{id}, GET /v1/search with q=isrc:{isrc} or a term and
// type=track, a playlist's tracks for imports, and creating a playlist in the user's account for exports.
// Catalogue reads use the app's client-credentials token; imports and exports the user's token.
import { requestJson } from "@tt/providers";
import type { TokenSource } from "./token-source.ts";
import { withToken } from "./token-source.ts";
import { arr, rec, seconds, str, urlOf, yearOf, type ProviderSearchPage, type ProviderTrack } from "./track.ts";

export interface SpotifyCatalog {
  getTrack(id: string): Promise<ProviderTrack | undefined>;
  searchByIsrc(isrc: string): Promise<ProviderTrack | undefined>;
  search(term: string, offset: number, limit: number): Promise<ProviderSearchPage>;
  /** One page of a public playlist's tracks, read with the app's token (imports). */
  playlistPage(
    playlistId: string,
    offset: number,
    limit: number,
  ): Promise<{ tracks: ProviderTrack[]; total: number; nextOffset?: number }>;
  /** Every track of a playlist the user can see (paged through, at most `max`). */
  playlistTracks(
    user: TokenSource,
    playlistId: string,
    max: number,
  ): Promise<{ name: string; tracks: ProviderTrack[] }>;
  /** Creates a private playlist in the user's account and adds the tracks; answers its id and link. */
  createPlaylist(user: TokenSource, name: string, trackIds: string[]): Promise<{ id: string; link?: string }>;
}

export interface HttpSpotifyCatalogOptions {
  /** https://api.spotify.com */
  apiBaseUrl: string;
  app: TokenSource;
  timeoutMs: number;
}

export function spotifyTrack(raw: unknown): ProviderTrack | undefined {
  const t = rec(raw);
  const id = str(t.id);
  const name = str(t.name);
  if (id === undefined || name === undefined) return undefined;
  const album = rec(t.album);
  const images = arr(album.images).map(rec);
  const track: ProviderTrack = {
    provider: "spotify",
    providerId: id,
    trackName: name,
    artistName: arr(t.artists)
      .map((a) => str(rec(a).name))
      .filter((a): a is string => a !== undefined)
      .join(", "),
    duration: seconds(t.duration_ms),
    explicit: t.explicit === true,
    previews: str(t.preview_url) !== undefined ? [str(t.preview_url) as string] : [],
  };
  const isrc = str(rec(t.external_ids).isrc);
  if (isrc !== undefined) track.isrc = isrc.toUpperCase();
  const albumName = str(album.name);
  if (albumName !== undefined) track.albumName = albumName;
  const thumbnail = str(images[0]?.url);
  if (thumbnail !== undefined) track.thumbnail = thumbnail;
  const link = str(rec(t.external_urls).spotify);
  if (link !== undefined) track.link = link;
  const year = yearOf(album.release_date);
  if (year !== undefined) track.releaseYear = year;
  return track;
}

export function createHttpSpotifyCatalog(options: HttpSpotifyCatalogOptions): SpotifyCatalog {
  const get = (token: string, url: URL) =>
    requestJson({
      provider: "spotify",
      method: "GET",
      url,
      headers: { authorization: `Bearer ${token}` },
      timeoutMs: options.timeoutMs,
    });
  const api = (path: string, query?: Record<string, string | number | undefined>) =>
    urlOf(options.apiBaseUrl, path, query);
  const searchTracks = async (q: string, offset: number, limit: number) => {
    const body = await withToken(options.app, (token) =>
      get(token, api("/v1/search", { q, type: "track", offset, limit })),
    );
    const tracks = rec(rec(body).tracks);
    const items = arr(tracks.items)
      .map(spotifyTrack)
      .filter((t): t is ProviderTrack => t !== undefined);
    const page: ProviderSearchPage = { tracks: items };
    if (str(tracks.next) !== undefined) page.nextOffset = offset + items.length;
    return page;
  };
  return {
    async getTrack(id) {
      try {
        return spotifyTrack(
          await withToken(options.app, (token) => get(token, api(`/v1/tracks/${encodeURIComponent(id)}`))),
        );
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
    },
    async searchByIsrc(isrc) {
      return (await searchTracks(`isrc:${isrc}`, 0, 1)).tracks[0];
    },
    search: (term, offset, limit) => searchTracks(term, offset, limit),
    async playlistPage(playlistId, offset, limit) {
      const page = rec(
        await withToken(options.app, (token) =>
          get(
            token,
            api(`/v1/playlists/${encodeURIComponent(playlistId)}/tracks`, { offset, limit, additional_types: "track" }),
          ),
        ),
      );
      const items = arr(page.items);
      const tracks = items
        .map((item) => spotifyTrack(rec(item).track))
        .filter((t): t is ProviderTrack => t !== undefined);
      const total = typeof page.total === "number" ? page.total : offset + items.length;
      const result: { tracks: ProviderTrack[]; total: number; nextOffset?: number } = { tracks, total };
      if (items.length > 0 && str(page.next) !== undefined) result.nextOffset = offset + items.length;
      return result;
    },
    async playlistTracks(user, playlistId, max) {
      const id = encodeURIComponent(playlistId);
      const meta = rec(await withToken(user, (token) => get(token, api(`/v1/playlists/${id}`, { fields: "name" }))));
      const tracks: ProviderTrack[] = [];
      let offset = 0;
      while (tracks.length < max) {
        const page = rec(
          await withToken(user, (token) =>
            get(token, api(`/v1/playlists/${id}/tracks`, { offset, limit: 100, additional_types: "track" })),
          ),
        );
        const items = arr(page.items);
        for (const item of items) {
          const track = spotifyTrack(rec(item).track);
          if (track !== undefined && tracks.length < max) tracks.push(track);
        }
        if (items.length === 0 || str(page.next) === undefined) break;
        offset += items.length;
      }
      return { name: str(meta.name) ?? "", tracks };
    },
    async createPlaylist(user, name, trackIds) {
      const me = rec(await withToken(user, (token) => get(token, api("/v1/me"))));
      const userId = str(me.id) ?? "me";
      const created = rec(
        await withToken(user, (token) =>
          requestJson({
            provider: "spotify",
            method: "POST",
            url: api(`/v1/users/${encodeURIComponent(userId)}/playlists`),
            headers: { authorization: `Bearer ${token}` },
            json: { name, public: false },
            timeoutMs: options.timeoutMs,
          }),
        ),
      );
      const playlistId = str(created.id) ?? "";
      // Spotify adds at most 100 items per call.
      for (let i = 0; i < trackIds.length; i += 100) {
        const uris = trackIds.slice(i, i + 100).map((t) => `spotify:track:${t}`);
        await withToken(user, (token) =>
          requestJson({
            provider: "spotify",
            method: "POST",
            url: api(`/v1/playlists/${encodeURIComponent(playlistId)}/tracks`),
            headers: { authorization: `Bearer ${token}` },
            json: { uris },
            timeoutMs: options.timeoutMs,
          }),
        );
      }
      const result: { id: string; link?: string } = { id: playlistId };
      const link = str(rec(created.external_urls).spotify);
      if (link !== undefined) result.link = link;
      return result;
    },
  };
}

export function isNotFound(error: unknown): boolean {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as { kind?: string }).kind === "rejected" &&
    (error as { status?: number }).status === 404
  );
}
