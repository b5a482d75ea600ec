// Issue 12: a browser that plays HLS natively (no Media Source Extensions: older iOS) cannot send the listener's
// token; the player opens the upload service's ticketed nativePlaylistUrl instead, and hls.js keeps its own path.
import { describe, expect, it, vi } from "vitest";
import { FakeMedia } from "./fake-media.ts";
import { createNativeHlsUrl } from "./native-hls.ts";
import type { PlayRequest } from "./types.ts";
import { createUrlPlayHandler } from "./url-handler.ts";

const BASE = "https://upload.example.test";
const master = "/api/room-service/songs/7/hls-playlist";
const native = `${master}?ticket=u.s.1.mac`;

function fakeFetch(answer: { status: number; body?: unknown }) {
  return vi.fn(async (..._args: Parameters<typeof fetch>) => new Response(JSON.stringify(answer.body ?? {}), answer));
}

const request = (media: FakeMedia): PlayRequest => ({
  song: { musicProviders: { uploadService: "7" }, streamUrls: { uploadService: { hls: master } }, duration: 30 },
  provider: "uploadService",
  media,
  startAt: 0,
  quality: "medium",
  autoplay: false,
  onError: () => undefined,
});

describe("native HLS for uploads", () => {
  const resolve = async (path: string) => `${BASE}${path}`;

  it("asks the upload service for the ticketed URL with the listener's token and opens it natively", async () => {
    const fetch = fakeFetch({ status: 200, body: { hlsPlaylistUrl: master, nativePlaylistUrl: native } });
    const loadHls = vi.fn();
    const handler = createUrlPlayHandler({
      loadHls,
      hasMediaSource: () => false,
      resolveUrl: (url) => `${BASE}${url}`,
      nativeHlsUrl: createNativeHlsUrl({ token: () => "tok", resolve, fetch }),
    });
    const media = new FakeMedia();
    media.nativeHls = true;
    const playback = await handler.play(request(media));
    expect(media.src).toBe(`${BASE}${native}`);
    expect(playback.source).toBe(master);
    expect(loadHls).not.toHaveBeenCalled();
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe(`${BASE}/api/upload-service/songs/7/hls-playlist-url`);
    expect(init?.headers).toEqual({ Authorization: "Bearer tok" });
  });

  it("keeps the URL as it is when signed out, for other providers and paths, and when the service refuses", async () => {
    const ok = fakeFetch({ status: 200, body: { nativePlaylistUrl: native } });
    const signedOut = createNativeHlsUrl({ token: () => undefined, resolve, fetch: ok });
    expect(await signedOut(`${BASE}${master}`, "uploadService")).toBe(`${BASE}${master}`);
    const signedIn = createNativeHlsUrl({ token: () => "tok", resolve, fetch: ok });
    expect(await signedIn(`${BASE}${master}`, "audius")).toBe(`${BASE}${master}`);
    expect(await signedIn("https://cdn.example.test/x.m3u8", "uploadService")).toBe("https://cdn.example.test/x.m3u8");
    expect(ok).not.toHaveBeenCalled();
    const refused = createNativeHlsUrl({ token: () => "tok", resolve, fetch: fakeFetch({ status: 403 }) });
    expect(await refused(`${BASE}${master}`, "uploadService")).toBe(`${BASE}${master}`);
  });

  it("leaves the hls.js path alone where the browser has Media Source Extensions", async () => {
    const nativeHlsUrl = vi.fn(async (url: string) => url);
    const loaded = vi.fn(async () => {
      throw new Error("hls.js would load here");
    });
    const handler = createUrlPlayHandler({ loadHls: loaded, hasMediaSource: () => true, nativeHlsUrl });
    await expect(handler.play(request(new FakeMedia()))).rejects.toThrow("hls.js would load here");
    expect(nativeHlsUrl).not.toHaveBeenCalled();
  });
});
