// The paid music catalogue, sevenDigital (spec 002 §5 first import provider, §7, §9): track search by isrc or
// by term, v1 (`/1.2/track/search`, page/pagesize) or v2 (`/2.0/track/search`, offset/limit) when the switch
// is on, country US by default, page size 20; media URLs by country and audio quality; image URLs snapped to
// the catalogue's sizes 33…800. Calls carry the consumer key (`oauth_consumer_key`).
import { requestJson } from "@tt/providers";
import { arr, rec, seconds, str, urlOf, yearOf, type ProviderSearchPage, type ProviderTrack } from "./track.ts";

export const SEVEN_DIGITAL_PAGE_SIZE = 20;
export const DEFAULT_CATALOGUE_COUNTRY = "US";
export const CATALOGUE_IMAGE_SIZES = [33, 50, 100, 180, 182, 200, 350, 500, 800] as const;
export type AudioQuality = "low" | "medium" | "high";
/** The stream format per audio quality: 64 kbps, 128 kbps and 320 kbps AAC/MP3. */
export const SEVEN_DIGITAL_FORMATS: Record<AudioQuality, number> = { low: 55, medium: 56, high: 26 };

/** The catalogue size nearest to `size` (ties go to the larger); 33 below, 800 above. */
export function snapImageSize(size: number): number {
  if (!Number.isFinite(size)) return 800;
  let best: number = CATALOGUE_IMAGE_SIZES[0];
  for (const candidate of CATALOGUE_IMAGE_SIZES) {
    if (Math.abs(candidate - size) <= Math.abs(best - size)) best = candidate;
  }
  return best;
}

/** Rewrites a catalogue image URL (`…_50.jpg`) to another of its sizes. */
export function catalogueImage(url: string, size: number): string {
  return url.replace(/_(\d+)\.(jpg|jpeg|png)$/i, `_${snapImageSize(size)}.$2`);
}

export interface SevenDigitalSearch {
  /** Either an isrc or a term. */
  isrc?: string;
  term?: string;
  country?: string;
  offset?: number;
}

export interface SevenDigital {
  search(query: SevenDigitalSearch): Promise<ProviderSearchPage>;
  getTrack(id: string, country?: string): Promise<ProviderTrack | undefined>;
  /** The URL of a track's audio for a country and quality (the player fetches it with the signed query). */
  mediaUrl(id: string, country: string, quality: AudioQuality): string;
  previewUrl(id: string, country: string): string;
}

export interface HttpSevenDigitalOptions {
  /** https://api.7digital.com */
  apiBaseUrl: string;
  /** https://stream.svc.7digital.net */
  mediaBaseUrl: string;
  /** https://previews.7digital.com */
  previewBaseUrl: string;
  consumerKey: string;
  /** Use the v2 search (offset/limit) instead of v1 (page/pagesize). */
  v2: boolean;
  timeoutMs: number;
}

export function sevenDigitalTrack(raw: unknown, imageSize = 350): ProviderTrack | undefined {
  const t = rec(raw);
  const id = str(t.id);
  const title = str(t.title);
  if (id === undefined || title === undefined) return undefined;
  const release = rec(t.release);
  const track: ProviderTrack = {
    provider: "sevenDigital",
    providerId: id,
    trackName: title,
    artistName: str(rec(t.artist).name) ?? "",
    duration: typeof t.duration === "number" ? Math.round(t.duration) : seconds(t.durationMs),
    explicit: t.explicitContent === true,
    previews: [],
  };
  const isrc = str(t.isrc);
  if (isrc !== undefined) track.isrc = isrc.toUpperCase();
  const album = str(release.title);
  if (album !== undefined) track.albumName = album;
  const image = str(release.image);
  if (image !== undefined) track.thumbnail = catalogueImage(image, imageSize);
  const link = str(t.url);
  if (link !== undefined) track.link = link;
  const year = yearOf(release.releaseDate);
  if (year !== undefined) track.releaseYear = year;
  return track;
}

export function createHttpSevenDigital(options: HttpSevenDigitalOptions): SevenDigital {
  const get = (path: string, query: Record<string, string | number | undefined>) =>
    requestJson({
      provider: "sevenDigital",
      method: "GET",
      url: urlOf(options.apiBaseUrl, path, { ...query, oauth_consumer_key: options.consumerKey }),
      headers: { accept: "application/json" },
      timeoutMs: options.timeoutMs,
    });
  return {
    async search(query) {
      const country = (query.country || DEFAULT_CATALOGUE_COUNTRY).toUpperCase();
      const offset = Math.max(0, query.offset ?? 0);
      const q = query.isrc !== undefined ? { isrc: query.isrc } : { q: query.term ?? "" };
      if (query.isrc === undefined && (query.term ?? "").trim() === "") return { tracks: [] };
      const body = options.v2
        ? await get("/2.0/track/search", { ...q, country, offset, limit: SEVEN_DIGITAL_PAGE_SIZE })
        : await get("/1.2/track/search", {
            ...q,
            country,
            page: Math.floor(offset / SEVEN_DIGITAL_PAGE_SIZE) + 1,
            pagesize: SEVEN_DIGITAL_PAGE_SIZE,
          });
      const results = rec(rec(body).searchResults);
      const tracks = arr(results.searchResult)
        .map((r) => sevenDigitalTrack(rec(r).track))
        .filter((t): t is ProviderTrack => t !== undefined);
      const page: ProviderSearchPage = { tracks };
      const total = Number(results.totalItems ?? 0);
      if (offset + SEVEN_DIGITAL_PAGE_SIZE < total) page.nextOffset = offset + SEVEN_DIGITAL_PAGE_SIZE;
      return page;
    },
    async getTrack(id, country) {
      try {
        const body = await get("/1.2/track/details", {
          trackid: id,
          country: (country || DEFAULT_CATALOGUE_COUNTRY).toUpperCase(),
        });
        return sevenDigitalTrack(rec(body).track);
      } catch (error) {
        if ((error as { status?: number }).status === 404) return undefined;
        throw error;
      }
    },
    mediaUrl: (id, country, quality) =>
      urlOf(options.mediaBaseUrl, "/stream/catalogue", {
        trackId: id,
        country: country.toUpperCase(),
        formatId: SEVEN_DIGITAL_FORMATS[quality],
        oauth_consumer_key: options.consumerKey,
      }).toString(),
    previewUrl: (id, country) =>
      urlOf(options.previewBaseUrl, `/clip/${encodeURIComponent(id)}`, {
        country: country.toUpperCase(),
        oauth_consumer_key: options.consumerKey,
      }).toString(),
  };
}
