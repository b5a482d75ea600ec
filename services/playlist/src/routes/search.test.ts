// SearchService through the host: the catalogue (the development default's only list), paging, explicit
// filtering, an empty term, SoundCloud against a recording fake, and /search/v2's merge of the two (§9).
import { randomUUID } from "node:crypto";
import { createServiceHarness, startFakeServer, type FakeServer, type ServiceHarness } from "@tt/kit/testing";
import { CrateService } from "@tt/proto/tt/playlist/v1/crate_service_pb";
import { SearchService } from "@tt/proto/tt/playlist/v1/search_service_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { playlistServiceDefinition } from "../index.ts";
import { soundCloudTrackJson } from "../providers/testing/fixtures.ts";

let h: ServiceHarness;
let soundcloud: FakeServer;
const word = `zq${randomUUID().slice(0, 8)}`;
let soundcloudDown = false;

beforeAll(async () => {
  soundcloud = await startFakeServer((req) => {
    if (req.path === "/oauth2/token") return { status: 200, json: { access_token: "sc-app", expires_in: 3600 } };
    if (soundcloudDown) return { status: 502, text: "bad gateway" };
    const limit = Number(req.query.get("limit"));
    return {
      status: 200,
      json: {
        collection: Array.from({ length: Math.min(limit, 3) }, (_, i) =>
          soundCloudTrackJson(9000 + i, `SC ${word} ${i}`),
        ),
      },
    };
  });
  h = await createServiceHarness(playlistServiceDefinition, {
    network: false,
    env: {
      SOUNDCLOUD_CLIENT_ID: "cid",
      SOUNDCLOUD_CLIENT_SECRET: "secret",
      SOUNDCLOUD_API_BASE_URL: soundcloud.url,
      IMPORT_DURABLE: `playlist-imports-test-${randomUUID()}`,
    },
  });
  // Eight catalogue songs matching the word (two explicit), added through a crate as any client would.
  const crates = h.client(CrateService, { token: await h.tokens.user() });
  await crates.addQueueSongs({
    songs: Array.from({ length: 8 }, (_, i) => ({
      trackName: `Cat ${word} ${i}`,
      artistName: i % 2 === 0 ? "Ana" : `The ${word.toUpperCase()} band`,
      duration: 200 + i,
      explicit: i >= 6,
      musicProviders: { spotify: `sp${word}${i}` },
    })),
  });
});
afterAll(async () => {
  await h?.close();
  await soundcloud?.close();
});

const search = async () => h.client(SearchService, { token: await h.tokens.user() });

describe("GET /search", () => {
  it("answers one list per provider: the catalogue first (names or artists, any case), then SoundCloud", async () => {
    const { results } = await (await search()).search({ q: word.toUpperCase() });
    expect(results.map((r) => r.musicProvider)).toEqual(["catalogue", "soundCloudPublic"]);
    expect(results[0]!.songs).toHaveLength(8);
    expect(results[0]!.songs.every((s) => s.songId !== "")).toBe(true);
    expect(results[1]!.songs.map((s) => s.trackName)).toEqual([0, 1, 2].map((i) => `SC ${word} ${i}`));
    expect(results[1]!.songs[0]).toMatchObject({ songId: "", musicProviders: { soundCloudPublic: "9000" } });
    const sent = soundcloud.requests.filter((r) => r.path === "/tracks").at(-1)!;
    expect(Object.fromEntries(sent.query)).toMatchObject({ q: word.toUpperCase(), limit: "20", offset: "0" });
  });

  it("pages the catalogue with limit and offset", async () => {
    const client = await search();
    const first = await client.search({ q: word, limit: 3 });
    expect(first.results[0]!.songs).toHaveLength(3);
    expect(first.results[0]!.nextOffset).toBe(3);
    const last = await client.search({ q: word, limit: 3, offset: 6 });
    expect(last.results[0]!.songs).toHaveLength(2);
    expect(last.results[0]!.nextOffset).toBe(0);
  });

  it("leaves explicit songs out with explicit=false", async () => {
    const { results } = await (await search()).search({ q: word, explicit: false });
    expect(results[0]!.songs).toHaveLength(6);
    expect(results[0]!.songs.some((s) => s.explicit)).toBe(false);
  });

  it("does not search an empty term", async () => {
    const before = soundcloud.requests.length;
    expect((await (await search()).search({ q: "   " })).results).toEqual([]);
    expect(soundcloud.requests.length).toBe(before);
  });

  it("answers the other lists when a provider fails, naming it in its list", async () => {
    soundcloudDown = true;
    try {
      const { results } = await (await search()).search({ q: word });
      expect(results[0]!.songs).toHaveLength(8);
      expect(results[1]).toMatchObject({
        musicProvider: "soundCloudPublic",
        songs: [],
        error: "SoundCloud is not available",
      });
    } finally {
      soundcloudDown = false;
    }
  });

  it("is open to guests", async () => {
    const guest = h.client(SearchService, { token: await h.tokens.guest() });
    expect((await guest.search({ q: word })).results[0]!.songs).toHaveLength(8);
  });
});

describe("GET /search/v2", () => {
  it("merges catalogue and SoundCloud: the first five catalogue results, then alternating (§9)", async () => {
    const { results } = await (await search()).searchV2({ q: word });
    expect(results.map((r) => r.musicProvider)).toEqual(["catalogue"]);
    const kinds = results[0]!.songs.map((s) => (s.musicProviders.soundCloudPublic ? "s" : "c"));
    expect(kinds.join("")).toBe("cccccscscsc");
  });
});
