import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createSessionStore } from "../session-store.ts";
import { MemoryStorage } from "../testing/memory-storage.ts";
import {
  AUDIO_QUALITY_STORAGE_KEY,
  DRIFT_CATCH_UP_S,
  DRIFT_IN_SYNC_S,
  DRIFT_RATE_NUDGE,
  DRIFT_SEEK_THRESHOLD_S,
  MEDIA_CACHE_TTL_MS,
} from "./constants.ts";
import { chooseProvider, createPlayerController } from "./controller.ts";
import { decideDrift, elapsedPosition } from "./drift.ts";
import { PlaybackError } from "./errors.ts";
import { FakeMedia } from "./fake-media.ts";
import { createMediaCache } from "./media-cache.ts";
import { createQualityStore } from "./quality.ts";
import type { ActivePlayback, PlayHandler, PlayRequest } from "./types.ts";
import { createUrlPlayHandler, levelForQuality } from "./url-handler.ts";

const USER = { uuid: "u1", email: "ada@example.test", role: "user" };

function signedInSession(storage = new MemoryStorage()) {
  const session = createSessionStore(storage);
  session.signIn({ token: "user-token", tokenType: "user" }, USER);
  return session;
}

/** A handler that records what it was asked to play. */
function recordingHandler(group: string, providers: string[]) {
  const started: PlayRequest[] = [];
  const stopped: string[] = [];
  const handler: PlayHandler = {
    group,
    providers,
    async play(request) {
      started.push(request);
      const source =
        request.song.streamUrls?.[request.provider]?.hls ?? String(request.song.musicProviders?.[request.provider]);
      const playback: ActivePlayback = { source, stop: () => stopped.push(source) };
      return playback;
    },
  };
  return { handler, started, stopped };
}

const uploaded = (id: number, hls = `/api/upload-service/media/${id}/master.m3u8`) => ({
  musicProviders: { uploadService: String(id) },
  streamUrls: { uploadService: { hls } },
  duration: 180,
});

describe("drift correction", () => {
  it("does nothing within the tolerance and puts the rate back to 1", () => {
    expect(decideDrift(10, 10 + DRIFT_IN_SYNC_S / 2)).toMatchObject({ action: "none", playbackRate: 1 });
    expect(decideDrift(10, 10 - DRIFT_IN_SYNC_S / 2)).toMatchObject({ action: "none", playbackRate: 1 });
  });

  it("nudges in proportion to a small drift, to close it over DRIFT_CATCH_UP_S without overshooting", () => {
    // 40 ms behind: 4 % faster closes it in one second; 20 ms ahead: 2 % slower.
    const behind = decideDrift(10, 10.04);
    expect(behind.action).toBe("nudge");
    expect(behind.playbackRate).toBeCloseTo(1 + 0.04 / DRIFT_CATCH_UP_S, 9);
    expect(decideDrift(10.02, 10).playbackRate).toBeCloseTo(1 - 0.02 / DRIFT_CATCH_UP_S, 9);
    // Never more than the largest nudge.
    expect(decideDrift(10, 10.5).playbackRate).toBe(1 + DRIFT_RATE_NUDGE);
  });

  it("speeds up slightly when behind the room and slows down when ahead, for a small drift", () => {
    expect(decideDrift(10, 11)).toEqual({ action: "nudge", drift: 1, playbackRate: 1 + DRIFT_RATE_NUDGE });
    expect(decideDrift(11, 10)).toEqual({ action: "nudge", drift: -1, playbackRate: 1 - DRIFT_RATE_NUDGE });
  });

  it("seeks at and beyond the threshold, either way", () => {
    expect(decideDrift(10, 10 + DRIFT_SEEK_THRESHOLD_S)).toMatchObject({ action: "seek", position: 12 });
    expect(decideDrift(40, 5)).toMatchObject({ action: "seek", position: 5, playbackRate: 1 });
  });

  it("seeks when the element has no position yet, and ignores a server position that is not a number", () => {
    expect(decideDrift(Number.NaN, 7)).toMatchObject({ action: "seek", position: 7 });
    expect(decideDrift(7, Number.NaN)).toMatchObject({ action: "none" });
  });

  it("seekTo applies the decision to the media element", () => {
    const media = new FakeMedia();
    const player = createPlayerController({
      media,
      handlers: [],
      quality: createQualityStore(new MemoryStorage()),
      log: () => undefined,
    });
    media.currentTime = 30;
    player.seekTo(31);
    expect(media.playbackRate).toBe(1 + DRIFT_RATE_NUDGE);
    expect(media.currentTime).toBe(30);
    player.seekTo(30 + DRIFT_IN_SYNC_S / 2);
    expect(media.playbackRate).toBe(1);
    player.seekTo(60);
    expect(media.currentTime).toBe(60);
    expect(media.playbackRate).toBe(1);
  });

  it("computes the elapsed position from the duration, the end time and the clock offset", () => {
    // A 200 s song ending 50 s from now is 150 s in; a listener clock 2 s ahead sees it 2 s earlier.
    expect(elapsedPosition(200, 1_050_000, 1_000_000)).toBe(150);
    expect(elapsedPosition(200, 1_050_000, 1_002_000, 2_000)).toBe(150);
    expect(elapsedPosition(200, 2_000_000, 1_000_000)).toBe(0);
    expect(elapsedPosition(200, 0, 1_000_000)).toBe(200);
  });
});

describe("audio quality", () => {
  it("is medium by default and remembers a signed-in listener's choice", () => {
    const storage = new MemoryStorage();
    const session = signedInSession(storage);
    const store = createQualityStore(storage, session);
    expect(store.get()).toBe("medium");
    store.set("high");
    expect(storage.getItem(AUDIO_QUALITY_STORAGE_KEY)).toBe("high");
    expect(createQualityStore(storage, session).get()).toBe("high");
  });

  it("goes back to medium when the listener signs out, and starts at medium for a guest", () => {
    const storage = new MemoryStorage();
    const session = signedInSession(storage);
    const store = createQualityStore(storage, session);
    store.set("low");
    const seen: string[] = [];
    store.subscribe(() => seen.push(store.get()));
    session.setGuestToken({ token: "guest", tokenType: "guest" });
    expect(store.get()).toBe("medium");
    expect(seen).toEqual(["medium"]);
    expect(storage.getItem(AUDIO_QUALITY_STORAGE_KEY)).toBe("medium");

    storage.setItem(AUDIO_QUALITY_STORAGE_KEY, "high");
    expect(createQualityStore(storage, session).get()).toBe("medium");
  });

  it("ignores a stored value that is not a quality and refuses to set one", () => {
    const storage = new MemoryStorage();
    storage.setItem(AUDIO_QUALITY_STORAGE_KEY, "ultra");
    const store = createQualityStore(storage);
    expect(store.get()).toBe("medium");
    expect(() => store.set("ultra" as never)).toThrow(RangeError);
  });

  it("changes the quality of the song playing", async () => {
    const media = new FakeMedia();
    const quality = createQualityStore(new MemoryStorage());
    const setQuality = vi.fn();
    const handler: PlayHandler = {
      group: "url",
      providers: ["uploadService"],
      play: async () => ({ source: "x", stop: () => undefined, setQuality }),
    };
    const player = createPlayerController({ media, handlers: [handler], quality, log: () => undefined });
    await player.play(uploaded(1));
    player.setQuality("high");
    expect(setQuality).toHaveBeenCalledWith("high");
    expect(player.getState().quality).toBe("high");
  });
});

describe("provider choice and playback errors (spec 002 §4, §8, §9)", () => {
  const url = recordingHandler("url", ["uploadService", "soundCloudPublic", "audius", "catalogue"]);

  it("plays from the first provider by priority that a handler plays", () => {
    const song = { musicProviders: { spotify: "sp1", uploadService: "7", audius: "a1" } };
    expect(chooseProvider(song, [url.handler]).provider).toBe("audius");
    const spotify = recordingHandler("spotify", ["spotify"]);
    expect(chooseProvider(song, [url.handler, spotify.handler]).provider).toBe("spotify");
  });

  it('says "Unknown provider" for a song with no provider the player knows', () => {
    expect(() => chooseProvider({ musicProviders: { gramophone: "x" } }, [url.handler])).toThrow("Unknown provider");
  });

  it('says "Missing play handler for" the provider when no handler plays it', () => {
    expect(() => chooseProvider({ musicProviders: { spotify: "sp1" } }, [url.handler])).toThrow(
      new PlaybackError("missingPlayHandler", "spotify"),
    );
    expect(new PlaybackError("missingPlayHandler", "spotify").message).toBe("Missing play handler for spotify");
  });

  it('says "Missing URL to play from" the provider when the song has its id but no stream URL, and logs it', async () => {
    const media = new FakeMedia();
    const log = vi.fn();
    const player = createPlayerController({
      media,
      handlers: [createUrlPlayHandler({ loadHls: () => Promise.reject(new Error("not needed")) })],
      quality: createQualityStore(new MemoryStorage()),
      log,
    });
    await expect(player.play({ musicProviders: { uploadService: "7" } })).rejects.toThrow(
      "Missing URL to play from uploadService",
    );
    expect(player.getState()).toMatchObject({ status: "error", provider: "uploadService" });
    expect(log).toHaveBeenCalledWith("Failed to play song", expect.any(PlaybackError));
  });

  it("stops when there is no song data", async () => {
    const { handler, stopped } = recordingHandler("url", ["uploadService"]);
    const player = createPlayerController({
      media: new FakeMedia(),
      handlers: [handler],
      quality: createQualityStore(new MemoryStorage()),
    });
    await player.play(uploaded(1));
    await player.play(null);
    expect(stopped).toHaveLength(1);
    expect(player.getState().status).toBe("idle");
    await player.play({ musicProviders: {} });
    expect(player.getState().status).toBe("idle");
  });

  it("does not restart the same provider, stream URL and end time; restarts for a new end time", async () => {
    const { handler, started, stopped } = recordingHandler("url", ["uploadService"]);
    const player = createPlayerController({
      media: new FakeMedia(),
      handlers: [handler],
      quality: createQualityStore(new MemoryStorage()),
    });
    await player.play(uploaded(1), { endsAt: 1000 });
    await player.play(uploaded(1), { endsAt: 1000 });
    expect(started).toHaveLength(1);
    await player.play(uploaded(1), { endsAt: 2000 });
    expect(started).toHaveLength(2);
    expect(stopped).toHaveLength(1);
  });

  it("stops the provider playing before another one starts: one at a time", async () => {
    const url = recordingHandler("url", ["uploadService"]);
    const spotify = recordingHandler("spotify", ["spotify"]);
    const player = createPlayerController({
      media: new FakeMedia(),
      handlers: [url.handler, spotify.handler],
      quality: createQualityStore(new MemoryStorage()),
    });
    await player.play(uploaded(1));
    await player.play({ musicProviders: { spotify: "sp1" } });
    expect(url.stopped).toEqual(["/api/upload-service/media/1/master.m3u8"]);
    expect(player.getState().provider).toBe("spotify");
  });

  it("starts at the given position with the listener's quality, and reports playing", async () => {
    const { handler, started } = recordingHandler("url", ["uploadService"]);
    const storage = new MemoryStorage();
    const quality = createQualityStore(storage);
    quality.set("low");
    const media = new FakeMedia();
    const player = createPlayerController({ media, handlers: [handler], quality });
    await player.play(uploaded(1), { startAt: 42 });
    expect(started[0]).toMatchObject({ startAt: 42, quality: "low", autoplay: true, provider: "uploadService" });
    expect(player.getState().status).toBe("ready");
    await media.play();
    expect(player.getState().status).toBe("playing");
  });
});

describe("URL handler", () => {
  class FakeHls {
    static instances: FakeHls[] = [];
    static Events = { MANIFEST_PARSED: "hlsManifestParsed", ERROR: "hlsError" };
    static isSupported = () => true;
    levels = [
      { bitrate: 256_000, name: "" },
      { bitrate: 64_000, name: "" },
      { bitrate: 128_000, name: "" },
    ];
    startLevel = -1;
    currentLevel = -1;
    nextLevel = -1;
    source = "";
    destroyed = false;
    handlers = new Map<string, (event: string, data: unknown) => void>();
    constructor(readonly config: { startPosition: number; xhrSetup: (xhr: XMLHttpRequest, url: string) => void }) {
      FakeHls.instances.push(this);
    }
    on(event: string, handler: (event: string, data: unknown) => void) {
      this.handlers.set(event, handler);
    }
    loadSource(url: string) {
      this.source = url;
    }
    attachMedia() {}
    destroy() {
      this.destroyed = true;
    }
    manifestParsed() {
      this.handlers.get(FakeHls.Events.MANIFEST_PARSED)?.("", { levels: this.levels });
    }
  }

  beforeEach(() => {
    FakeHls.instances = [];
  });

  const request = (media: FakeMedia, overrides: Partial<PlayRequest> = {}): PlayRequest => ({
    song: uploaded(3, "https://media.example.test/songs/3/master.m3u8"),
    provider: "uploadService",
    media,
    startAt: 12,
    quality: "medium",
    autoplay: true,
    onError: () => undefined,
    ...overrides,
  });

  it("plays HLS with hls.js at the medium level by bandwidth, from the start position, bearer on the key only", async () => {
    const handler = createUrlPlayHandler({
      loadHls: async () => FakeHls as never,
      hasMediaSource: () => true,
      requestHeaders: (url) => (url.includes("/hls/key") ? { Authorization: "Bearer t" } : undefined),
    });
    const media = new FakeMedia();
    const playback = await handler.play(request(media));
    const hls = FakeHls.instances[0]!;
    expect(hls.source).toBe("https://media.example.test/songs/3/master.m3u8");
    expect(hls.config.startPosition).toBe(12);
    hls.manifestParsed();
    expect(hls.currentLevel).toBe(2);
    expect(media.plays).toBe(1);

    const headers: [string, string][] = [];
    const xhr = {
      setRequestHeader: (name: string, value: string) => headers.push([name, value]),
    } as unknown as XMLHttpRequest;
    hls.config.xhrSetup(xhr, "https://media.example.test/songs/3/seg-1.ts");
    expect(headers).toEqual([]);
    hls.config.xhrSetup(xhr, "https://gw.example.test/api/room-service/songs/hls/key?song=3");
    expect(headers).toEqual([["Authorization", "Bearer t"]]);

    playback.setQuality?.("high");
    expect(hls.nextLevel).toBe(0);
    playback.stop();
    expect(hls.destroyed).toBe(true);
  });

  it("plays a stream path from where the service really is, and still knows the song by its path", async () => {
    const handler = createUrlPlayHandler({
      loadHls: async () => FakeHls as never,
      hasMediaSource: () => true,
      resolveUrl: (url, provider) => (provider === "uploadService" ? `https://upload.example.test${url}` : url),
    });
    const playback = await handler.play(request(new FakeMedia(), { song: uploaded(4) }));
    expect(FakeHls.instances[0]!.source).toBe("https://upload.example.test/api/upload-service/media/4/master.m3u8");
    expect(playback.source).toBe("/api/upload-service/media/4/master.m3u8");
  });

  it("chooses levels by name when the playlist names them", () => {
    expect(
      levelForQuality(
        [
          { bitrate: 1, name: "high" },
          { bitrate: 2, name: "low" },
          { bitrate: 3, name: "medium" },
        ],
        "medium",
      ),
    ).toBe(2);
    expect(levelForQuality([], "low")).toBe(-1);
  });

  it("uses the browser's own HLS without Media Source Extensions, starting at the position once loaded", async () => {
    const loadHls = vi.fn();
    const handler = createUrlPlayHandler({ loadHls, hasMediaSource: () => false });
    const media = new FakeMedia();
    media.nativeHls = true;
    await handler.play(request(media));
    expect(loadHls).not.toHaveBeenCalled();
    expect(media.src).toBe("https://media.example.test/songs/3/master.m3u8");
    media.loadMetadata(180);
    expect(media.currentTime).toBe(12);
  });

  it("keeps the song ready when autoplay is refused", async () => {
    const handler = createUrlPlayHandler({ hasMediaSource: () => false });
    const media = new FakeMedia();
    media.nativeHls = true;
    media.playRefused = true;
    const player = createPlayerController({
      media,
      handlers: [handler],
      quality: createQualityStore(new MemoryStorage()),
    });
    await player.play(uploaded(3));
    expect(player.getState().status).toBe("ready");
  });

  it("reports a fatal stream error as a playback failure", async () => {
    const handler = createUrlPlayHandler({ loadHls: async () => FakeHls as never, hasMediaSource: () => true });
    const player = createPlayerController({
      media: new FakeMedia(),
      handlers: [handler],
      quality: createQualityStore(new MemoryStorage()),
      log: () => undefined,
    });
    await player.play(uploaded(3));
    FakeHls.instances[0]!.handlers.get(FakeHls.Events.ERROR)?.("", { fatal: true, error: new Error("key 401") });
    expect(player.getState()).toMatchObject({ status: "error", error: { message: "Failed to play song" } });
  });
});

describe("media cache (spec 002 §9)", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function cacheWithCounters() {
    let made = 0;
    const revoked: string[] = [];
    const fetch = vi.fn(async () => new Response(new Blob(["audio"])));
    const cache = createMediaCache({
      fetch,
      createObjectURL: () => `blob:${++made}`,
      revokeObjectURL: (url) => revoked.push(url),
      now: () => Date.now(),
    });
    return { cache, fetch, revoked };
  }

  it("keeps media for an hour, then fetches it again", async () => {
    const { cache, fetch } = cacheWithCounters();
    expect(await cache.get("https://cdn.example.test/a.mp3", 200)).toBe("blob:1");
    vi.advanceTimersByTime(MEDIA_CACHE_TTL_MS - 1);
    expect(await cache.get("https://cdn.example.test/a.mp3", 200)).toBe("blob:1");
    expect(fetch).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(await cache.get("https://cdn.example.test/a.mp3", 200)).toBe("blob:2");
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it("revokes a blob URL an hour plus the song's duration after it was made, not before", async () => {
    const { cache, revoked } = cacheWithCounters();
    await cache.get("https://cdn.example.test/a.mp3", 200);
    vi.advanceTimersByTime(MEDIA_CACHE_TTL_MS + 200_000 - 1);
    expect(revoked).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(revoked).toEqual(["blob:1"]);
  });

  it("does not cache a failed fetch, and revokes everything on clear", async () => {
    const fetch = vi
      .fn<typeof globalThis.fetch>()
      .mockResolvedValueOnce(new Response(null, { status: 503 }))
      .mockResolvedValue(new Response(new Blob(["audio"])));
    const revoked: string[] = [];
    const cache = createMediaCache({ fetch, createObjectURL: () => "blob:x", revokeObjectURL: (u) => revoked.push(u) });
    await expect(cache.get("https://cdn.example.test/b.mp3", 10)).rejects.toThrow("503");
    expect(await cache.get("https://cdn.example.test/b.mp3", 10)).toBe("blob:x");
    cache.clear();
    expect(revoked).toEqual(["blob:x"]);
    expect(cache.size()).toBe(0);
  });

  it("plays a plain stream from its cached blob URL", async () => {
    const { cache } = cacheWithCounters();
    const handler = createUrlPlayHandler({ mediaCache: cache });
    const media = new FakeMedia();
    const playback = await handler.play({
      song: { streamUrls: { audius: { http: "https://cdn.example.test/a.mp3" } }, duration: 30 },
      provider: "audius",
      media,
      startAt: 0,
      quality: "medium",
      autoplay: false,
      onError: () => undefined,
    });
    expect(media.src).toBe("blob:1");
    expect(playback.source).toBe("https://cdn.example.test/a.mp3");
  });
});
