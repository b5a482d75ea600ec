import type HlsType from "hls.js";
import type { Level } from "hls.js";
import { HLS_MIME_TYPE, type AudioQuality } from "./constants.ts";
import { PlaybackError } from "./errors.ts";
import { createMediaCache, type MediaCache } from "./media-cache.ts";
import type { ActivePlayback, MediaElement, PlayHandler, PlayRequest } from "./types.ts";

export type HlsConstructor = typeof HlsType;

/** hls.js's light build (AES-128 included), fetched only when a song is first played. */
export const loadHls = (): Promise<HlsConstructor> =>
  import(/* webpackChunkName: "hls" */ "hls.js/dist/hls.light.min.mjs").then((module) => module.default);

export interface UrlHandlerOptions {
  /** How hls.js is loaded (a fake in tests). */
  loadHls?: () => Promise<HlsConstructor>;
  /** Plain (http) streams are fetched through it (spec 002 §9). */
  mediaCache?: MediaCache;
  /**
   * Headers for a media request (the listener's bearer token on an HLS key request). Only hls.js can add them;
   * native HLS opens a URL that carries its own signed ticket instead (nativeHlsUrl).
   */
  requestHeaders?: (url: string) => Record<string, string> | undefined;
  /**
   * Where a stream URL really is: the upload service answers paths (`/api/room-service/songs/7/hls-playlist`) that
   * belong under its base URL, which the runtime configuration may put on another origin.
   */
  resolveUrl?: (url: string, provider: string) => string | Promise<string>;
  /** Whether this browser has Media Source Extensions (hls.js's way); tests set it. */
  hasMediaSource?: () => boolean;
  /**
   * The URL a native HLS player opens instead of the (resolved) master playlist URL: native players send no
   * headers, so the upload service gives a ticketed URL (createNativeHlsUrl). Default: the URL itself.
   */
  nativeHlsUrl?: (url: string, provider: string) => Promise<string>;
}

/** The URL-based provider group (spec 002 §3); only the upload provider is served by the platform so far. */
export const URL_HANDLER_PROVIDERS = ["uploadService", "catalogue", "soundCloudPublic", "audius"] as const;

/** The level for a quality: by NAME when the playlist names them, otherwise by bandwidth (low, middle, high). */
export function levelForQuality(levels: readonly Pick<Level, "bitrate" | "name">[], quality: AudioQuality): number {
  if (levels.length === 0) return -1;
  const named = levels.findIndex((level) => level.name?.toLowerCase() === quality);
  if (named >= 0) return named;
  const byBitrate = levels
    .map((level, index) => ({ index, bitrate: level.bitrate }))
    .sort((a, b) => a.bitrate - b.bitrate);
  const position =
    quality === "low" ? 0 : quality === "high" ? byBitrate.length - 1 : Math.floor((byBitrate.length - 1) / 2);
  return byBitrate[position]!.index;
}

function defaultHasMediaSource(): boolean {
  return typeof window !== "undefined" && ("MediaSource" in window || "ManagedMediaSource" in window);
}

/** Starts the element at `startAt` once it knows its duration, and plays when asked to. */
function startAt(media: MediaElement, position: number, autoplay: boolean): () => void {
  const onMetadata = () => {
    if (position > 0) media.currentTime = position;
  };
  media.addEventListener("loadedmetadata", onMetadata, { once: true });
  // Autoplay can be refused until the listener has interacted with the page: the controls then offer play.
  if (autoplay) media.play().catch(() => undefined);
  return () => media.removeEventListener("loadedmetadata", onMetadata);
}

function detach(media: MediaElement): void {
  media.pause();
  media.removeAttribute("src");
  media.load();
}

export function createUrlPlayHandler(options: UrlHandlerOptions = {}): PlayHandler {
  const load = options.loadHls ?? loadHls;
  const cache = options.mediaCache ?? createMediaCache({ headers: options.requestHeaders });
  const hasMediaSource = options.hasMediaSource ?? defaultHasMediaSource;

  const playNative = (request: PlayRequest, url: string): ActivePlayback => {
    request.media.src = url;
    const cancel = startAt(request.media, request.startAt, request.autoplay);
    return {
      source: url,
      stop() {
        cancel();
        detach(request.media);
      },
    };
  };

  const native = async (request: PlayRequest, url: string) =>
    playNative(request, options.nativeHlsUrl ? await options.nativeHlsUrl(url, request.provider) : url);

  const playHls = async (request: PlayRequest, url: string): Promise<ActivePlayback> => {
    const nativeHls = request.media.canPlayType(HLS_MIME_TYPE) !== "";
    if (!hasMediaSource() && nativeHls) return native(request, url);
    const Hls = await load();
    if (!Hls.isSupported()) {
      if (nativeHls) return native(request, url);
      throw new PlaybackError("mediaFailed", request.provider);
    }
    let quality = request.quality;
    const hls = new Hls({
      startPosition: request.startAt > 0 ? request.startAt : -1,
      // The key request carries the listener's credentials; segments and playlists need none.
      xhrSetup(xhr, requestUrl) {
        const headers = options.requestHeaders?.(requestUrl);
        if (headers) for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
      },
    });
    hls.on(Hls.Events.MANIFEST_PARSED, (_event, data) => {
      const level = levelForQuality(data.levels, quality);
      if (level >= 0) {
        hls.startLevel = level;
        hls.currentLevel = level;
      }
      if (request.autoplay) request.media.play().catch(() => undefined);
    });
    hls.on(Hls.Events.ERROR, (_event, data) => {
      if (data.fatal) request.onError(new PlaybackError("mediaFailed", request.provider, { cause: data.error }));
    });
    hls.loadSource(url);
    hls.attachMedia(request.media as HTMLMediaElement);
    return {
      source: url,
      stop() {
        hls.destroy();
        detach(request.media);
      },
      setQuality(next) {
        quality = next;
        const level = levelForQuality(hls.levels, next);
        // Switch at the next segment boundary, without flushing what is buffered.
        if (level >= 0) hls.nextLevel = level;
      },
    };
  };

  return {
    group: "url",
    providers: URL_HANDLER_PROVIDERS,
    async play(request) {
      const urls = request.song.streamUrls?.[request.provider];
      const hls = urls?.hls?.trim();
      const http = urls?.http?.trim();
      const resolve = async (url: string) => (options.resolveUrl ? options.resolveUrl(url, request.provider) : url);
      if (hls) return { ...(await playHls(request, await resolve(hls))), source: hls };
      if (!http) throw new PlaybackError("missingUrl", request.provider);
      const blobUrl = await cache.get(await resolve(http), request.song.duration ?? 0);
      const playback = playNative(request, blobUrl);
      return { ...playback, source: http };
    },
  };
}
