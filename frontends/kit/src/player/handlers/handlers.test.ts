import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createSessionStore } from "../../session-store.ts";
import { MemoryStorage } from "../../testing/memory-storage.ts";
import { HANGOUT_PRIORITY, PROVIDER_PRIORITY } from "../constants.ts";
import { createPlayerController } from "../controller.ts";
import { FakeMedia } from "../fake-media.ts";
import { createQualityStore } from "../quality.ts";
import type { PlayHandler, PlayRequest } from "../types.ts";
import { createApplePlayHandler, MUSICKIT_JS, runtimeDeveloperToken, type MusicKitInstance } from "./apple.ts";
import { loadPlayHandlers, priorityForBrand } from "./index.ts";
import { resetScripts, type ScriptHost } from "./script.ts";
import { createSpotifyPlayHandler, SPOTIFY_SDK } from "./spotify.ts";
import { createYouTubePlayHandler, YOUTUBE_IFRAME_API, type YouTubeApi } from "./youtube.ts";

/** A script host that "loads" a script by running what the real SDK would do. */
function fakeScripts(effects: Record<string, () => void>) {
  const injected: string[] = [];
  const host: ScriptHost = {
    inject(src, onLoad) {
      injected.push(src);
      queueMicrotask(() => {
        effects[src]?.();
        onLoad();
      });
    },
  };
  return { host, injected };
}

function request(song: PlayRequest["song"], provider: string, startAt = 0): PlayRequest {
  return { song, provider, media: new FakeMedia(), startAt, quality: "medium", autoplay: true, onError: vi.fn() };
}

/** A YT global whose players record what they were asked. */
function fakeYouTube() {
  const players: { videoId: string; seeks: number[]; playing: boolean; destroyed: boolean; time: number }[] = [];
  const api: YouTubeApi = {
    Player: class {
      private readonly state;
      constructor(_element: HTMLElement, options: ConstructorParameters<YouTubeApi["Player"]>[1]) {
        this.state = { videoId: options.videoId, seeks: [] as number[], playing: false, destroyed: false, time: 0 };
        players.push(this.state);
        queueMicrotask(() => options.events?.onReady?.({ target: this }));
      }
      playVideo() {
        this.state.playing = true;
      }
      stopVideo() {
        this.state.playing = false;
      }
      seekTo(seconds: number) {
        this.state.seeks.push(seconds);
        this.state.time = seconds;
      }
      getCurrentTime() {
        return this.state.time;
      }
      destroy() {
        this.state.destroyed = true;
      }
    } as unknown as YouTubeApi["Player"],
  };
  return { api, players };
}

beforeEach(() => resetScripts());
afterEach(() => {
  delete window.YT;
  delete window.onYouTubeIframeAPIReady;
  delete window.Spotify;
  delete window.MusicKit;
});

describe("the play handlers' registry", () => {
  it("loads only the configured players' handlers", async () => {
    expect(await loadPlayHandlers({ players: [] })).toEqual([]);
    const handlers = await loadPlayHandlers({ players: ["youtube", "apple"] });
    expect(handlers.map((handler) => handler.group)).toEqual(["youtube", "apple"]);
    expect(handlers.flatMap((handler) => handler.providers)).toEqual(["youtube", "apple"]);
  });

  it("picks spec 002 §9's priority list by brand", () => {
    expect(priorityForBrand("hangout")).toBe(HANGOUT_PRIORITY);
    expect(priorityForBrand(undefined)).toBe(PROVIDER_PRIORITY);
    expect(priorityForBrand("turntable")).toBe(PROVIDER_PRIORITY);
  });
});

describe("YouTube (IFrame API)", () => {
  it("fails with the spec's message when the song has no YouTube id", async () => {
    const handler = createYouTubePlayHandler({ scripts: fakeScripts({}).host });
    await expect(handler.play(request({ musicProviders: { youtube: "" } }, "youtube"))).rejects.toThrow(
      "Missing ID to play from youtube",
    );
  });

  it("loads the API once, on the first play, and plays the video from the room's position", async () => {
    const { api, players } = fakeYouTube();
    const { host, injected } = fakeScripts({
      [YOUTUBE_IFRAME_API]: () => {
        window.YT = api;
        queueMicrotask(() => window.onYouTubeIframeAPIReady?.());
      },
    });
    const container = document.createElement("div");
    const handler = createYouTubePlayHandler({ scripts: host, container: () => container });
    expect(injected).toEqual([]);
    const first = await handler.play(request({ musicProviders: { youtube: "vid-1" } }, "youtube", 42));
    expect(injected).toEqual([YOUTUBE_IFRAME_API]);
    expect(players[0]).toMatchObject({ videoId: "vid-1", seeks: [42], playing: true });
    expect(first.source).toBe("vid-1");
    expect(first.position?.()).toBe(42);
    first.stop();
    expect(players[0]!.destroyed).toBe(true);
    await handler.play(request({ musicProviders: { youtube: "vid-2" } }, "youtube"));
    expect(injected).toHaveLength(1);
  });
});

describe("Spotify (Web Playback SDK)", () => {
  function fakeSpotify() {
    const calls: { url: string; auth: string; body: unknown }[] = [];
    const statuses = [204];
    const fetch = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
      calls.push({
        url: String(url),
        auth: new Headers(init?.headers).get("Authorization") ?? "",
        body: JSON.parse(String(init?.body)),
      });
      return new Response(null, { status: statuses.shift() ?? 204 });
    });
    const paused: number[] = [];
    const { host } = fakeScripts({
      [SPOTIFY_SDK]: () => {
        window.Spotify = {
          Player: class {
            private readonly listeners = new Map<string, (payload: { device_id?: string }) => void>();
            addListener(event: string, callback: (payload: { device_id?: string }) => void) {
              this.listeners.set(event, callback);
              return true;
            }
            async connect() {
              queueMicrotask(() => this.listeners.get("ready")?.({ device_id: "device-1" }));
              return true;
            }
            disconnect() {}
            async pause() {
              paused.push(1);
            }
            async seek() {}
            async getCurrentState() {
              return null;
            }
          } as never,
        };
        queueMicrotask(() => window.onSpotifyWebPlaybackSDKReady?.());
      },
    });
    return { calls, statuses, fetch, host, paused };
  }

  it('says "No Spotify token" when the listener has none, before loading the SDK', async () => {
    const { host, fetch } = fakeSpotify();
    const handler = createSpotifyPlayHandler({ getToken: async () => undefined, scripts: host, fetch });
    await expect(handler.play(request({ musicProviders: { spotify: "track-1" } }, "spotify"))).rejects.toThrow(
      "No Spotify token",
    );
    expect(window.Spotify).toBeUndefined();
  });

  it("fails with the spec's message when the song has no Spotify id", async () => {
    const handler = createSpotifyPlayHandler({ getToken: async () => "t" });
    await expect(handler.play(request({ musicProviders: {} }, "spotify"))).rejects.toThrow(
      "Missing ID to play from spotify",
    );
  });

  it("starts the track on this page's device at the room's position; on a 401 refreshes the token once", async () => {
    const { host, fetch, calls, statuses } = fakeSpotify();
    statuses.splice(0, statuses.length, 401, 204);
    const getToken = vi.fn(async (options?: { refresh?: boolean }) => (options?.refresh ? "fresh" : "stale"));
    const handler = createSpotifyPlayHandler({ getToken, scripts: host, fetch });
    const playback = await handler.play(request({ musicProviders: { spotify: "track-1" } }, "spotify", 12.5));
    expect(calls.map((call) => call.auth)).toEqual(["Bearer stale", "Bearer fresh"]);
    expect(calls[1]!.url).toBe("https://api.spotify.com/v1/me/player/play?device_id=device-1");
    expect(calls[1]!.body).toEqual({ uris: ["spotify:track:track-1"], position_ms: 12_500 });
    expect(playback.source).toBe("track-1");
  });
});

describe("Apple Music (MusicKit JS)", () => {
  it("says which configuration key is missing without a developer token", async () => {
    const handler = createApplePlayHandler({ getDeveloperToken: async () => undefined });
    await expect(handler.play(request({ musicProviders: { apple: "123" } }, "apple"))).rejects.toThrow(
      "key:appleDeveloperToken",
    );
  });

  it("queues the song, seeks to the room's position and stops", async () => {
    const music: MusicKitInstance & { queued: string[]; stopped: number } = {
      currentPlaybackTime: 0,
      queued: [],
      stopped: 0,
      async setQueue({ song }) {
        this.queued.push(song);
      },
      async seekToTime(seconds) {
        this.currentPlaybackTime = seconds;
      },
      async play() {},
      stop() {
        this.stopped += 1;
      },
    };
    const configure = vi.fn(async () => music);
    const { host, injected } = fakeScripts({
      [MUSICKIT_JS]: () => {
        window.MusicKit = { configure };
        document.dispatchEvent(new Event("musickitloaded"));
      },
    });
    const handler = createApplePlayHandler({
      getDeveloperToken: async () => "dev-token",
      getUserToken: async () => "user-token",
      scripts: host,
    });
    const playback = await handler.play(request({ musicProviders: { apple: "123" } }, "apple", 30));
    expect(injected).toEqual([MUSICKIT_JS]);
    expect(configure).toHaveBeenCalledWith({ developerToken: "dev-token", app: { name: "Turntable", build: "1" } });
    expect(music.musicUserToken).toBe("user-token");
    expect(music.queued).toEqual(["123"]);
    expect(playback.position?.()).toBe(30);
    playback.stop();
    expect(music.stopped).toBe(1);
  });
});

describe("issue 14: the Apple Music developer token of the runtime configuration", () => {
  const config = (developerToken: string, expiresAt: string) => ({
    remotes: [],
    services: {},
    players: ["apple"],
    appleMusic: { developerToken, expiresAt },
  });

  it("is read from /remotes.json, and fetched again when it expires within ten minutes", async () => {
    const now = Date.UTC(2026, 0, 1, 12);
    const loads: boolean[] = [];
    const answers = [
      config("a.b.c", new Date(now + 60 * 60_000).toISOString()),
      config("a.b.c", new Date(now + 5 * 60_000).toISOString()),
      config("d.e.f", new Date(now + 6 * 60 * 60_000).toISOString()),
    ];
    const load = async (_url: string, fresh: boolean) => {
      loads.push(fresh);
      return answers.shift()!;
    };
    expect(await runtimeDeveloperToken(load, () => now)).toBe("a.b.c");
    expect(await runtimeDeveloperToken(load, () => now)).toBe("d.e.f");
    expect(loads).toEqual([false, false, true]);
    expect(await runtimeDeveloperToken(async () => ({ remotes: [], services: {} }))).toBeUndefined();
  });

  it("configures MusicKit again when the token changed", async () => {
    const music: MusicKitInstance = {
      currentPlaybackTime: 0,
      async setQueue() {},
      async seekToTime() {},
      async play() {},
      stop() {},
    };
    const configure = vi.fn(async (_options: { developerToken: string }) => music);
    const { host } = fakeScripts({
      [MUSICKIT_JS]: () => {
        window.MusicKit = { configure };
        document.dispatchEvent(new Event("musickitloaded"));
      },
    });
    let token = "first.token.x";
    const handler = createApplePlayHandler({ getDeveloperToken: async () => token, scripts: host });
    await handler.play(request({ musicProviders: { apple: "1" } }, "apple"));
    await handler.play(request({ musicProviders: { apple: "2" } }, "apple"));
    expect(configure).toHaveBeenCalledTimes(1);
    token = "second.token.y";
    await handler.play(request({ musicProviders: { apple: "3" } }, "apple"));
    expect(configure.mock.calls.map(([options]) => options.developerToken)).toEqual([
      "first.token.x",
      "second.token.y",
    ]);
  });
});

describe("one provider at a time, by priority (spec 002 §4, §9)", () => {
  function setup(priority?: readonly string[]) {
    const { api, players } = fakeYouTube();
    window.YT = api;
    const youtube = createYouTubePlayHandler({ container: () => document.createElement("div") });
    const urlStops: string[] = [];
    const url: PlayHandler = {
      group: "url",
      providers: ["uploadService"],
      async play(req) {
        const source = req.song.streamUrls?.[req.provider]?.hls ?? "";
        return { source, stop: () => urlStops.push(source) };
      },
    };
    const session = createSessionStore(new MemoryStorage());
    const controller = createPlayerController({
      media: new FakeMedia(),
      handlers: [youtube, url],
      quality: createQualityStore(new MemoryStorage(), session),
      ...(priority ? { priority } : {}),
      log: () => undefined,
    });
    return { controller, players, urlStops };
  }
  const both = {
    musicProviders: { youtube: "vid-1", uploadService: "7" },
    streamUrls: { uploadService: { hls: "/songs/7/hls-playlist" } },
    duration: 120,
  };

  it("plays YouTube before the upload by default, the upload first for the hangout brand", async () => {
    const normal = setup();
    await normal.controller.play(both, { endsAt: 1 });
    expect(normal.controller.getState().provider).toBe("youtube");
    const hangout = setup(priorityForBrand("hangout"));
    await hangout.controller.play(both, { endsAt: 1 });
    expect(hangout.controller.getState().provider).toBe("uploadService");
  });

  it("does not restart the same song with the same end time; removing the provider stops it", async () => {
    const { controller, players, urlStops } = setup();
    await controller.play(both, { endsAt: 1 });
    await controller.play({ ...both }, { endsAt: 1 });
    expect(players).toHaveLength(1);
    // YouTube removed from the song: its player is stopped, the upload plays.
    await controller.play({ ...both, musicProviders: { uploadService: "7" } }, { endsAt: 1 });
    expect(players[0]!.destroyed).toBe(true);
    expect(controller.getState().provider).toBe("uploadService");
    controller.stop();
    expect(urlStops).toEqual(["/songs/7/hls-playlist"]);
  });

  it("corrects an SDK player's drift by seeking only beyond the threshold", async () => {
    const { controller, players } = setup();
    await controller.play(both, { endsAt: 1, startAt: 10 });
    expect(controller.seekTo(10.5)).toMatchObject({ action: "none" });
    expect(players[0]!.seeks).toEqual([10]);
    expect(controller.seekTo(20)).toMatchObject({ action: "seek", position: 20 });
    expect(players[0]!.seeks).toEqual([10, 20]);
  });
});
