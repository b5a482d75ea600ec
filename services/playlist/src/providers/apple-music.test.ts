import { startFakeServer, type FakeServer } from "@tt/kit/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createHttpAppleMusic } from "./apple-music.ts";
import { appleSongJson } from "./testing/fixtures.ts";
import type { TokenSource } from "./token-source.ts";

let fake: FakeServer;
beforeAll(async () => {
  fake = await startFakeServer(() => ({ status: 500 }));
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
});

let developer = "dev-1";
const source: TokenSource = { get: async () => developer, refresh: async () => (developer = "dev-2") };
const client = () => createHttpAppleMusic({ apiBaseUrl: fake.url, developer: source, timeoutMs: 2000 });

describe("Apple Music API client", () => {
  it("reads a song in the default storefront us with include=playParams and the developer token", async () => {
    fake.setHandler(() => ({ status: 200, json: { data: [appleSongJson()] } }));
    const song = await client().getSong("1440857786");
    expect(song).toMatchObject({
      provider: "apple",
      providerId: "1440857786",
      isrc: "GBARL9300135",
      explicit: true,
      duration: 214,
      thumbnail: "https://is1.mzstatic.com/256x256bb.jpg",
      genre: "Pop",
      previews: ["https://audio-ssl.itunes.apple.com/p.m4a"],
    });
    expect(fake.requests[0]?.path).toBe("/v1/catalog/us/songs/1440857786");
    expect(fake.requests[0]?.query.get("include")).toBe("playParams");
    expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${developer}`);
  });

  it("finds songs by isrc and searches with limit 25, types songs, term and offset", async () => {
    fake.setHandler((req) =>
      req.path.endsWith("/search")
        ? { status: 200, json: { results: { songs: { data: [appleSongJson()], next: "/next" } } } }
        : { status: 200, json: { data: [appleSongJson()] } },
    );
    await client().songByIsrc("GBARL9300135", "GB");
    const page = await client().search("rick", 25);
    expect(fake.requests[0]?.path).toBe("/v1/catalog/gb/songs");
    expect(fake.requests[0]?.query.get("filter[isrc]")).toBe("GBARL9300135");
    expect(Object.fromEntries(fake.requests[1]?.query ?? [])).toEqual({
      term: "rick",
      types: "songs",
      limit: "25",
      offset: "25",
      include: "playParams",
    });
    expect(page.tracks).toHaveLength(1);
    expect(page.nextOffset).toBe(26);
  });

  it("refreshes the developer token once on 401", async () => {
    developer = "dev-1";
    fake.setHandler((req) =>
      req.headers.authorization === "Bearer dev-1"
        ? { status: 401, json: { errors: [{ code: "40100" }] } }
        : { status: 200, json: { data: [appleSongJson()] } },
    );
    expect((await client().getSong("1"))?.trackName).toBe("Never Gonna Give You Up");
    expect(fake.requests.map((r) => r.headers.authorization)).toEqual(["Bearer dev-1", "Bearer dev-2"]);
  });

  it("exports into the user's library with the Music User Token", async () => {
    fake.setHandler(() => ({ status: 201, json: { data: [{ id: "p.123" }] } }));
    expect(await client().createLibraryPlaylist("mut", "Crate", ["1", "2"])).toEqual({ id: "p.123" });
    const req = fake.requests[0];
    expect(req?.path).toBe("/v1/me/library/playlists");
    expect(req?.headers["music-user-token"]).toBe("mut");
    expect(req?.json).toEqual({
      attributes: { name: "Crate" },
      relationships: {
        tracks: {
          data: [
            { id: "1", type: "songs" },
            { id: "2", type: "songs" },
          ],
        },
      },
    });
  });
});
