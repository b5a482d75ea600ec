// Audius (spec 002 §7): GET /v1/tracks/{id}, /v1/tracks/{id}/stream, /v1/tracks/search with query. Public
// API, no credentials; every call names the app (`app_name`), as Audius asks.
import { requestJson } from "@tt/providers";
import { arr, rec, str, urlOf, yearOf, type ProviderSearchPage, type ProviderTrack } from "./track.ts";

export interface Audius {
  getTrack(id: string): Promise<ProviderTrack | undefined>;
  /** The URL a player streams from (the API redirects it to a content node). */
  streamUrl(id: string): string;
  /** A track's page (https://audius.co/artist/track) → its id; undefined when unknown. */
  resolve(url: string): Promise<string | undefined>;
  /** Needs a non-empty term (§5). */
  search(query: string, offset: number, limit: number): Promise<ProviderSearchPage>;
}

export interface HttpAudiusOptions {
  /** https://api.audius.co */
  apiBaseUrl: string;
  appName: string;
  timeoutMs: number;
}

export function audiusTrack(raw: unknown): ProviderTrack | undefined {
  const t = rec(raw);
  const id = str(t.id);
  const title = str(t.title);
  if (id === undefined || title === undefined) return undefined;
  const duration = typeof t.duration === "number" && t.duration > 0 ? Math.round(t.duration) : 0;
  const track: ProviderTrack = {
    provider: "audius",
    providerId: id,
    trackName: title,
    artistName: str(rec(t.user).name) ?? "",
    duration,
    explicit: false,
    previews: [],
  };
  const art = rec(t.artwork);
  const thumbnail = str(art["480x480"]) ?? str(art["150x150"]);
  if (thumbnail !== undefined) track.thumbnail = thumbnail;
  const isrc = str(t.isrc);
  if (isrc !== undefined) track.isrc = isrc.toUpperCase();
  const genre = str(t.genre);
  if (genre !== undefined) track.genre = genre;
  const permalink = str(t.permalink);
  if (permalink !== undefined) track.link = `https://audius.co${permalink}`;
  const year = yearOf(t.release_date);
  if (year !== undefined) track.releaseYear = year;
  return track;
}

export function createHttpAudius(options: HttpAudiusOptions): Audius {
  const get = (path: string, query: Record<string, string | number | undefined> = {}) =>
    requestJson({
      provider: "audius",
      method: "GET",
      url: urlOf(options.apiBaseUrl, path, { ...query, app_name: options.appName }),
      timeoutMs: options.timeoutMs,
    });
  return {
    async getTrack(id) {
      try {
        return audiusTrack(rec(await get(`/v1/tracks/${encodeURIComponent(id)}`)).data);
      } catch (error) {
        if ((error as { status?: number }).status === 404) return undefined;
        throw error;
      }
    },
    async resolve(url) {
      try {
        return str(rec(rec(await get("/v1/resolve", { url })).data).id);
      } catch (error) {
        if ((error as { status?: number }).status === 404) return undefined;
        throw error;
      }
    },
    streamUrl: (id) =>
      urlOf(options.apiBaseUrl, `/v1/tracks/${encodeURIComponent(id)}/stream`, {
        app_name: options.appName,
      }).toString(),
    async search(query, offset, limit) {
      if (query.trim() === "") return { tracks: [] };
      const body = rec(await get("/v1/tracks/search", { query, offset, limit }));
      return {
        tracks: arr(body.data)
          .map(audiusTrack)
          .filter((t): t is ProviderTrack => t !== undefined),
      };
    },
  };
}
