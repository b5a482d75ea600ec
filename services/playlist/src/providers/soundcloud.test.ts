import { startFakeServer, type FakeServer } from "@tt/kit/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createHttpSoundCloud } from "./soundcloud.ts";
import { soundCloudTrackJson } from "./testing/fixtures.ts";
import type { TokenSource } from "./token-source.ts";

let fake: FakeServer;
beforeAll(async () => {
  fake = await startFakeServer(() => ({ status: 500 }));
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
});

const app: TokenSource = { get: async () => "app", refresh: async () => "app" };
const client = () => createHttpSoundCloud({ apiBaseUrl: fake.url, app, timeoutMs: 2000 });

describe("SoundCloud client", () => {
  it("reads a public track with its secret token, and its streams", async () => {
    fake.setHandler((req) =>
      req.path.endsWith("/streams")
        ? { status: 200, json: { http_mp3_128_url: "https://cf/x.mp3", hls_aac_160_url: "https://cf/x.m3u8" } }
        : { status: 200, json: soundCloudTrackJson() },
    );
    const track = await client().getTrack("123", "s-abc");
    expect(track).toMatchObject({
      provider: "soundCloudPublic",
      providerId: "123",
      trackName: "Night Drive",
      duration: 181,
    });
    expect(track?.thumbnail).toBe("https://i1.sndcdn.com/artworks-x-t300x300.jpg");
    expect(await client().streams("123")).toEqual({ http: "https://cf/x.mp3", hls: "https://cf/x.m3u8" });
    expect(fake.requests.map((r) => r.url)).toEqual(["/tracks/123?secret_token=s-abc", "/tracks/123/streams"]);
    expect(fake.requests[0]?.headers.authorization).toBe("OAuth app");
  });

  it("resolves a permalink to its track id with /resolve; unknown is undefined", async () => {
    fake.setHandler((req) =>
      req.query.get("url") === "https://soundcloud.com/a/b"
        ? { status: 200, json: { kind: "track", id: 42 } }
        : { status: 404, json: { error: "404 - Not Found" } },
    );
    expect(await client().resolve("https://soundcloud.com/a/b")).toBe("42");
    expect(await client().resolve("https://soundcloud.com/a/none")).toBeUndefined();
    expect(fake.requests[0]?.path).toBe("/resolve");
  });

  it("searches /tracks with q, offset, linked_partitioning and limit; an empty term is not searched", async () => {
    fake.setHandler(() => ({ status: 200, json: { collection: [soundCloudTrackJson()], next_href: "n" } }));
    const page = await client().search("night", 10, 20);
    expect(Object.fromEntries(fake.requests[0]?.query ?? [])).toEqual({
      q: "night",
      offset: "10",
      linked_partitioning: "true",
      limit: "20",
    });
    expect(page.nextOffset).toBe(11);
    expect((await client().search("  ", 0, 20)).tracks).toEqual([]);
    expect(fake.requests).toHaveLength(1);
  });

  it("the user's private tracks: /me/tracks filtered by title or artist in any case, refreshed once on 403", async () => {
    let token = "old";
    const user: TokenSource = { get: async () => token, refresh: async () => (token = "new") };
    fake.setHandler((req) =>
      req.headers.authorization === "OAuth old"
        ? { status: 403, json: { error: "forbidden" } }
        : {
            status: 200,
            json: {
              collection: [
                soundCloudTrackJson(1, "Night Drive", "X"),
                soundCloudTrackJson(2, "Morning", "NIGHTHAWK"),
                soundCloudTrackJson(3, "Noon", "Y"),
              ],
            },
          },
    );
    const mine = await client().myTracks(user, "nIgHt", 50);
    expect(mine.map((t) => t.providerId)).toEqual(["1", "2"]);
    expect(mine[0]?.provider).toBe("soundcloud");
    expect(fake.requests.map((r) => `${r.path} ${r.headers.authorization}`)).toEqual([
      "/me/tracks OAuth old",
      "/me/tracks OAuth new",
    ]);
  });

  it("a second refusal of the user's token is thrown (the user must re-authorise)", async () => {
    const user: TokenSource = { get: async () => "t", refresh: async () => "t2" };
    fake.setHandler(() => ({ status: 401, json: { error: "invalid_token" } }));
    await expect(client().myTracks(user, "", 10)).rejects.toMatchObject({ kind: "rejected", status: 401 });
    expect(fake.requests).toHaveLength(2);
  });
});
