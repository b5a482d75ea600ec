// SongDataService through the host against recording fakes of Spotify and Apple Music: a song by provider id
// becomes a catalogue song enriched with the other provider's ids (complete, so never fetched again, §4); by
// link (recognised hosts only, §5, with an isrc); stream and preview URLs; migrate-links; enrichment states.
import { randomUUID } from "node:crypto";
import { Code } from "@connectrpc/connect";
import {
  createServiceHarness,
  startFakeServer,
  type FakeServer,
  type ServiceHarness,
  codeAndMessageOf,
} from "@tt/kit/testing";
import { CrateService } from "@tt/proto/tt/playlist/v1/crate_service_pb";
import { SongDataService } from "@tt/proto/tt/playlist/v1/song_data_service_pb";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { playlistServiceDefinition } from "../index.ts";
import { appleSongJson, spotifyTrackJson, fakeSpotifyEnv } from "../providers/testing/fixtures.ts";

let h: ServiceHarness;
let fake: FakeServer;
let spotifyDown = false;

beforeAll(async () => {
  fake = await startFakeServer((req) => {
    if (req.path === "/api/token") return { status: 200, json: { access_token: "app", expires_in: 3600 } };
    if (req.path.startsWith("/v1/tracks/")) {
      const id = req.path.slice("/v1/tracks/".length);
      if (spotifyDown) return { status: 503, json: { error: { status: 503 } } };
      if (id.startsWith("none")) return { status: 404, json: { error: { status: 404 } } };
      if (id.startsWith("noisrc"))
        return { status: 200, json: { ...spotifyTrackJson(id), name: `No isrc ${id}`, external_ids: {} } };
      return {
        status: 200,
        json: { ...spotifyTrackJson(id, `GB${id.slice(0, 10).toUpperCase()}`), name: `Song ${id}` },
      };
    }
    if (req.path === "/youtube/v3/videos") {
      return { status: 200, json: { items: [{ id: req.query.get("id"), contentDetails: { duration: "PT3M7S" } }] } };
    }
    if (req.path === "/v1/catalog/us/songs") {
      const isrc = req.query.get("filter[isrc]") ?? "";
      return { status: 200, json: { data: [{ ...appleSongJson(`77${isrc.length}`, isrc), id: `ap-${isrc}` }] } };
    }
    return { status: 404, json: {} };
  });
  h = await createServiceHarness(playlistServiceDefinition, {
    network: false,
    env: {
      ...fakeSpotifyEnv(fake.url),
      APPLE_MUSIC_API_BASE_URL: fake.url,
      APPLE_MUSIC_DEVELOPER_TOKEN: "dev-token",
      SEVEN_DIGITAL_CONSUMER_KEY: "ck",
      YOUTUBE_API_BASE_URL: fake.url,
      YOUTUBE_API_KEY: "yt-key",
      SEVEN_DIGITAL_MEDIA_BASE_URL: "https://media.test",
      IMPORT_DURABLE: `playlist-imports-test-${randomUUID()}`,
    },
  });
});
afterAll(async () => {
  await h?.close();
  await fake?.close();
});
beforeEach(() => {
  fake.requests.length = 0;
});

const client = async () => h.client(SongDataService, { token: await h.tokens.user() });
const id = () => `t${randomUUID().replace(/-/g, "").slice(0, 12)}`;

describe("GET /song-data/{providerSongId}/{musicProvider}", () => {
  it("fetches a song once, adds the other provider's id by isrc, and answers the complete song afterwards", async () => {
    const songs = await client();
    const trackId = id();
    const first = (await songs.getSongData({ providerSongId: trackId, musicProvider: "spotify" })).song!;
    expect(first).toMatchObject({ trackName: `Song ${trackId}`, status: "SUCCESS" });
    expect(first.musicProviders).toEqual({ spotify: trackId, apple: `ap-${first.isrc}` });
    expect(fake.requests.map((r) => r.path)).toEqual(["/api/token", `/v1/tracks/${trackId}`, "/v1/catalog/us/songs"]);
    fake.requests.length = 0;
    const again = await songs.getSongDataProviders({ providerSongId: trackId, musicProvider: "spotify" });
    expect(again.song?.songId).toBe(first.songId);
    expect(again.musicProviders).toEqual(first.musicProviders);
    expect(fake.requests).toHaveLength(0);
  });

  it("404 when the provider does not know the id; FETCH_FAILED on a catalogue song when the provider fails", async () => {
    const songs = await client();
    expect(
      await codeAndMessageOf(songs.getSongData({ providerSongId: `none${id()}`, musicProvider: "spotify" })),
    ).toEqual([Code.NotFound, "song not found"]);
    // A catalogue song known only by its Spotify id (not complete): the fetch fails, the song is answered.
    const spotifyId = id();
    const crates = h.client(CrateService, { token: await h.tokens.user() });
    await crates.addQueueSongs({
      songs: [{ trackName: `Local ${spotifyId}`, artistName: "X", musicProviders: { spotify: spotifyId } }],
    });
    spotifyDown = true;
    try {
      const song = (await songs.getSongData({ providerSongId: spotifyId, musicProvider: "spotify" })).song!;
      expect(song).toMatchObject({ trackName: `Local ${spotifyId}`, status: "FETCH_FAILED" });
    } finally {
      spotifyDown = false;
    }
  });

  it("the /service variant is for services only", async () => {
    const service = h.client(SongDataService, { token: await h.tokens.service("room") });
    const trackId = id();
    expect(
      (await service.getServiceSongData({ providerSongId: trackId, musicProvider: "spotify" })).song?.trackName,
    ).toBe(`Song ${trackId}`);
    expect(
      (
        await codeAndMessageOf(
          (await client()).getServiceSongData({ providerSongId: trackId, musicProvider: "spotify" }),
        )
      )[0],
    ).toBe(Code.Unauthenticated);
  });

  it("a YouTube song of the catalogue gets its duration from the video service", async () => {
    const video = id();
    const crates = h.client(CrateService, { token: await h.tokens.user() });
    await crates.addQueueSongs({
      songs: [{ trackName: `Video ${video}`, artistName: "V", musicProviders: { youtube: video } }],
    });
    const song = (await (await client()).getSongData({ providerSongId: video, musicProvider: "youtube" })).song!;
    expect(song.duration).toBe(187);
    const sent = fake.requests.find((r) => r.path === "/youtube/v3/videos");
    expect(Object.fromEntries(sent?.query ?? [])).toEqual({ part: "contentDetails", id: video, key: "yt-key" });
    expect(
      await codeAndMessageOf((await client()).getSongData({ providerSongId: id(), musicProvider: "youtube" })),
    ).toEqual([Code.NotFound, "song not found"]);
  });

  it("refuses a provider that is not a MusicProvider", async () => {
    expect(
      (await codeAndMessageOf((await client()).getSongData({ providerSongId: "1", musicProvider: "nope" })))[0],
    ).toBe(Code.InvalidArgument);
  });
});

describe("GET /song-data/{link}", () => {
  it("reads a recognised link to a song with an isrc", async () => {
    const trackId = id();
    const song = (await (await client()).getSongDataByLink({ link: `https://open.spotify.com/track/${trackId}?si=1` }))
      .song!;
    expect(song.musicProviders.spotify).toBe(trackId);
    expect(song.isrc).not.toBe("");
  });

  it.each([
    ["https://example.com/track/1", Code.InvalidArgument, "link is not a recognised music link"],
    ["not a link at all", Code.InvalidArgument, "link is not a recognised music link"],
    ["https://www.deezer.com/track/1", Code.NotFound, "song not found"],
  ])("%s → %s", async (link, code, message) => {
    expect(await codeAndMessageOf((await client()).getSongDataByLink({ link }))).toEqual([code, message]);
  });

  it("404 for a song without an isrc (§5)", async () => {
    expect(
      await codeAndMessageOf(
        (await client()).getSongDataByLink({ link: `https://open.spotify.com/track/noisrc${id()}` }),
      ),
    ).toEqual([Code.NotFound, "song not found"]);
  });

  it("migrate-links answers one result per link, in order", async () => {
    const trackId = id();
    const { links } = await (
      await client()
    ).migrateLinks({
      links: [`https://open.spotify.com/track/${trackId}`, "https://example.com/x"],
    });
    expect(links.map((l) => [l.link, l.song?.musicProviders.spotify ?? "", l.error])).toEqual([
      [`https://open.spotify.com/track/${trackId}`, trackId, ""],
      ["https://example.com/x", "", "link is not a recognised music link"],
    ]);
    expect(
      await codeAndMessageOf(
        (await client()).migrateLinks({
          links: Array.from({ length: 51 }, (_, i) => `https://open.spotify.com/track/${i}`),
        }),
      ),
    ).toEqual([Code.InvalidArgument, "links must hold between 1 and 50 links"]);
  });
});

describe("stream and preview URLs", () => {
  it("the paid catalogue's media URL by country and quality (medium by default); previews; 404s", async () => {
    const crates = h.client(CrateService, { token: await h.tokens.user() });
    const sd = id();
    const added = await crates.addQueueSongs({
      songs: [
        { trackName: `Seven ${sd}`, artistName: "S", musicProviders: { sevenDigital: sd } },
        { trackName: `Nothing ${sd}`, artistName: "N", musicProviders: { youtube: sd } },
      ],
    });
    const [seven, nothing] = added.songs;
    const songs = await client();
    expect(await songs.getStreamUrl({ country: "gb", id: seven!.songId })).toMatchObject({
      musicProvider: "sevenDigital",
      url: `https://media.test/stream/catalogue?trackId=${sd}&country=GB&formatId=56&oauth_consumer_key=ck`,
    });
    expect((await songs.getStreamUrl({ country: "US", id: seven!.songShortId, quality: "high" })).url).toContain(
      "formatId=26",
    );
    expect((await songs.getPreviewUrl({ country: "US", id: seven!.songId })).url).toContain(`/clip/${sd}`);
    expect(await codeAndMessageOf(songs.getStreamUrl({ country: "US", id: nothing!.songId }))).toEqual([
      Code.NotFound,
      "no stream for this song",
    ]);
    expect(await codeAndMessageOf(songs.getPreviewUrl({ country: "US", id: nothing!.songId }))).toEqual([
      Code.NotFound,
      "no preview for this song",
    ]);
    expect(await codeAndMessageOf(songs.getStreamUrl({ country: "US", id: randomUUID() }))).toEqual([
      Code.NotFound,
      "song not found",
    ]);
    expect((await codeAndMessageOf(songs.getStreamUrl({ country: "USA", id: seven!.songId })))[0]).toBe(
      Code.InvalidArgument,
    );
    expect(
      (await codeAndMessageOf(songs.getStreamUrl({ country: "US", id: seven!.songId, quality: "ultra" })))[0],
    ).toBe(Code.InvalidArgument);
  });
});
