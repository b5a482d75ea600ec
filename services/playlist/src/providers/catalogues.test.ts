// Audius, YouTube, sevenDigital and the music-analysis endpoint against recording fakes.
import { createHmac } from "node:crypto";
import { startFakeServer, type FakeServer } from "@tt/kit/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createHttpAudius } from "./audius.ts";
import { createMusicProviders } from "./index.ts";
import { loadMusicProvidersConfig } from "./config.ts";
import { createHttpMusicAnalysis } from "./music-analysis.ts";
import { catalogueImage, createHttpSevenDigital, snapImageSize } from "./seven-digital.ts";
import { createHttpYouTube, isoDurationSeconds } from "./youtube.ts";

let fake: FakeServer;
beforeAll(async () => {
  fake = await startFakeServer(() => ({ status: 500 }));
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
});

describe("Audius", () => {
  it("reads a track, builds its stream URL and searches with query, naming the app", async () => {
    const json = {
      id: "D7KyD",
      title: "Wave",
      duration: 200,
      user: { name: "Ana" },
      artwork: { "480x480": "https://a/480.jpg" },
    };
    fake.setHandler((req) =>
      req.path === "/v1/tracks/search"
        ? { status: 200, json: { data: [json] } }
        : { status: 200, json: { data: json } },
    );
    const audius = createHttpAudius({ apiBaseUrl: fake.url, appName: "turntable", timeoutMs: 2000 });
    expect(await audius.getTrack("D7KyD")).toMatchObject({
      provider: "audius",
      trackName: "Wave",
      artistName: "Ana",
      duration: 200,
    });
    expect((await audius.search("wave", 0, 20)).tracks).toHaveLength(1);
    expect((await audius.search("", 0, 20)).tracks).toEqual([]);
    expect(fake.requests.map((r) => r.url)).toEqual([
      "/v1/tracks/D7KyD?app_name=turntable",
      "/v1/tracks/search?query=wave&offset=0&limit=20&app_name=turntable",
    ]);
    expect(audius.streamUrl("D7KyD")).toBe(`${fake.url}/v1/tracks/D7KyD/stream?app_name=turntable`);
  });
});

it("Audius resolves a track page to its id", async () => {
  fake.setHandler((req) =>
    req.path === "/v1/resolve" ? { status: 200, json: { data: { id: "Xy1" } } } : { status: 404, json: {} },
  );
  const audius = createHttpAudius({ apiBaseUrl: fake.url, appName: "turntable", timeoutMs: 2000 });
  expect(await audius.resolve("https://audius.co/ana/wave")).toBe("Xy1");
  expect(Object.fromEntries(fake.requests[0]?.query ?? [])).toEqual({
    url: "https://audius.co/ana/wave",
    app_name: "turntable",
  });
});

describe("YouTube Data API", () => {
  it.each([
    ["PT3M33S", 213],
    ["PT1H2M3S", 3723],
    ["P1DT1S", 86401],
    ["PT0S", 0],
    ["PT", 0],
    ["garbage", 0],
  ])("ISO duration %s is %i seconds", (iso, secs) => {
    expect(isoDurationSeconds(iso)).toBe(secs);
  });

  it("reads durations with part=contentDetails and the API key", async () => {
    fake.setHandler(() => ({ status: 200, json: { items: [{ id: "a", contentDetails: { duration: "PT4M" } }] } }));
    const yt = createHttpYouTube({ apiBaseUrl: fake.url, apiKey: "k", timeoutMs: 2000 });
    expect(await yt.durations(["a", "b"])).toEqual(new Map([["a", 240]]));
    expect(Object.fromEntries(fake.requests[0]?.query ?? [])).toEqual({ part: "contentDetails", id: "a,b", key: "k" });
  });
});

describe("sevenDigital", () => {
  const answer = {
    searchResults: {
      totalItems: 45,
      searchResult: [
        {
          track: {
            id: "12345",
            title: "Song",
            artist: { name: "Band" },
            duration: 201,
            isrc: "usabc1234567",
            explicitContent: true,
            release: { title: "LP", image: "https://artwork-cdn.7static.com/static/img/sleeveart/00/1_50.jpg" },
          },
        },
      ],
    },
  };
  const client = (v2: boolean) =>
    createHttpSevenDigital({
      apiBaseUrl: fake.url,
      mediaBaseUrl: "https://media.test",
      previewBaseUrl: "https://previews.test",
      consumerKey: "ck",
      v2,
      timeoutMs: 2000,
    });

  it("v1 searches by term with country US by default, page and page size 20", async () => {
    fake.setHandler(() => ({ status: 200, json: answer }));
    const page = await client(false).search({ term: "song", offset: 40 });
    expect(fake.requests[0]?.path).toBe("/1.2/track/search");
    expect(Object.fromEntries(fake.requests[0]?.query ?? [])).toEqual({
      q: "song",
      country: "US",
      page: "3",
      pagesize: "20",
      oauth_consumer_key: "ck",
    });
    expect(page.tracks[0]).toMatchObject({
      provider: "sevenDigital",
      providerId: "12345",
      isrc: "USABC1234567",
      explicit: true,
    });
    expect(page.tracks[0]?.thumbnail).toBe("https://artwork-cdn.7static.com/static/img/sleeveart/00/1_350.jpg");
    expect(page.nextOffset).toBeUndefined();
  });

  it("v2 searches by isrc with a country and an offset", async () => {
    fake.setHandler(() => ({ status: 200, json: answer }));
    const page = await client(true).search({ isrc: "USABC1234567", country: "gb", offset: 20 });
    expect(fake.requests[0]?.path).toBe("/2.0/track/search");
    expect(Object.fromEntries(fake.requests[0]?.query ?? [])).toEqual({
      isrc: "USABC1234567",
      country: "GB",
      offset: "20",
      limit: "20",
      oauth_consumer_key: "ck",
    });
    expect(page.nextOffset).toBe(40);
  });

  it("media URLs carry the country and the audio quality's format", () => {
    expect(client(false).mediaUrl("1", "us", "high")).toBe(
      "https://media.test/stream/catalogue?trackId=1&country=US&formatId=26&oauth_consumer_key=ck",
    );
    expect(client(false).mediaUrl("1", "DE", "low")).toContain("formatId=55");
  });

  it.each([
    [1, 33],
    [33, 33],
    [45, 50],
    [181, 182],
    [256, 200],
    [300, 350],
    [600, 500],
    [700, 800],
    [5000, 800],
  ])("an image of %i px snaps to %i", (size, snapped) => {
    expect(snapImageSize(size)).toBe(snapped);
    expect(catalogueImage("https://x/a_50.jpg", size)).toBe(`https://x/a_${snapped}.jpg`);
  });
});

describe("music-analysis GraphQL endpoint", () => {
  const client = () => createHttpMusicAnalysis({ url: `${fake.url}/graphql`, accessToken: "ma", timeoutMs: 2000 });

  it("answers the similar tracks' Spotify ids, with the bearer credential", async () => {
    fake.setHandler(() => ({
      status: 200,
      json: {
        data: {
          spotifyTrack: {
            __typename: "SpotifyTrack",
            similarTracks: {
              __typename: "SimilarTracksConnection",
              edges: [{ node: { id: "s1" } }, { node: { id: "s2" } }],
            },
          },
        },
      },
    }));
    expect(await client().similarTracks("seed", 10)).toEqual({ kind: "similar", spotifyTrackIds: ["s1", "s2"] });
    expect(fake.requests[0]?.headers.authorization).toBe("Bearer ma");
    expect(fake.requests[0]?.json).toMatchObject({ variables: { spotifyTrackId: "seed", first: 10 } });
  });

  it("trackNotAnalyzed enqueues an analysis (spec 002 §8)", async () => {
    fake.setHandler((req) =>
      String((req.json as { query: string }).query).startsWith("mutation")
        ? { status: 200, json: { data: { spotifyTrackEnqueue: { __typename: "SpotifyTrackEnqueueSuccess" } } } }
        : {
            status: 200,
            json: {
              data: {
                spotifyTrack: {
                  __typename: "SpotifyTrack",
                  similarTracks: { __typename: "SimilarTracksError", code: "trackNotAnalyzed", message: "not yet" },
                },
              },
            },
          },
    );
    expect(await client().similarTracks("seed", 10)).toEqual({ kind: "enqueued" });
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1]?.json).toMatchObject({ variables: { input: { spotifyTrackId: "seed" } } });
  });
});

describe("createMusicProviders", () => {
  it("is the catalogue alone with no credentials, and refuses half a credential pair", () => {
    const none = createMusicProviders(loadMusicProvidersConfig({}));
    expect(none.spotify).toBeUndefined();
    expect(Object.values(none.summary).every((v) => v === "development")).toBe(true);
    expect(() => loadMusicProvidersConfig({ SPOTIFY_CLIENT_ID: "x" })).toThrow(/SPOTIFY_CLIENT_SECRET/);
    const some = createMusicProviders(
      loadMusicProvidersConfig({ SPOTIFY_CLIENT_ID: "x", SPOTIFY_CLIENT_SECRET: "y", SEVEN_DIGITAL_CONSUMER_KEY: "k" }),
    );
    expect(some.summary).toMatchObject({ spotify: "real", sevenDigital: "real", apple: "development" });
    expect(createHmac("sha512", "s").update("b").digest("hex")).toHaveLength(128);
  });
});
