/* eslint-disable @typescript-eslint/no-explicit-any -- the suite reads REST answers as plain JSON */
// Search, song data, track import and the music-analysis webhook over REST through the gateway, on the
// development default: no provider credentials, so search and song data work on the platform's own catalogue
// alone (one laptop, no internet). Every path of these rows with its refusals.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { sharedPlatform, type Answer, type TestPlatform } from "./support/platform.ts";

let platform: TestPlatform;
let alice: string;
let bob: string;
const word = `e2e${randomUUID().slice(0, 8)}`;
const added: any[] = [];

const p = (path: string) => `/api/playlist-service${path}`;
const call = (method: string, path: string, token?: string, body?: unknown) =>
  platform.call(method, p(path), { ...(token ? { token } : {}), ...(body !== undefined ? { body } : {}) });

function ok(res: Answer): Record<string, any> {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as Record<string, any>;
}
function refused(res: Answer, status: number, message?: string | RegExp) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  if (typeof message === "string") expect(res.body.message).toBe(message);
  if (message instanceof RegExp) expect(String(res.body.message)).toMatch(message);
}

beforeAll(async () => {
  platform = await sharedPlatform();
  alice = (await platform.signUp()).token;
  bob = (await platform.signUp()).token;
  // Catalogue songs, put in by adding them to a crate (as a client adding a provider's song would).
  const answer = ok(
    await call("POST", "/crate/special/queue/songs", alice, {
      songs: Array.from({ length: 7 }, (_, i) => ({
        trackName: `Song ${word} ${i}`,
        artistName: "E2E",
        duration: 120 + i * 10,
        explicit: i === 6,
        musicProviders: { sevenDigital: `${word}-${i}`, spotify: `${word}sp${i}` },
        thumbnails: { spotify: `https://img.test/${i}.jpg` },
        links: { spotify: `https://open.spotify.com/track/${word}sp${i}` },
      })),
    }),
  );
  added.push(...answer.songs);
});

describe("GET /search and /search/v2", () => {
  it("finds the catalogue's songs without any provider configured, paged, for anyone", async () => {
    const page = ok(await call("GET", `/search?q=${word}&limit=5&offset=0`, alice));
    expect(page.results.map((r: any) => r.musicProvider)).toEqual(["catalogue"]);
    expect(page.results[0].songs).toHaveLength(5);
    expect(page.results[0].nextOffset).toBe(5);
    const next = ok(await call("GET", `/search?q=${word.toUpperCase()}&limit=5&offset=5`));
    expect(next.results[0].songs).toHaveLength(2);
    const v2 = ok(await call("GET", `/search/v2?q=${word}&country=gb`));
    expect(v2.results[0].songs).toHaveLength(7);
  });

  it("follows the user's preferences: explicit songs only for those who allow explicit audio", async () => {
    // A new account's user data does not allow explicit audio (the user service's default).
    expect(ok(await call("GET", `/search?q=${word}`, bob)).results[0].songs).toHaveLength(6);
    const put = await platform.call("PUT", "/api/user-service/users/profile/user-data", {
      token: bob,
      body: { musicProviders: ["spotify"], allowExplicitAudio: true },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(ok(await call("GET", `/search/v2?q=${word}`, bob)).results[0].songs).toHaveLength(7);
  });

  it("leaves explicit songs out with explicit=false and searches nothing for an empty term", async () => {
    const clean = ok(await call("GET", `/search?q=${word}&explicit=false`, alice));
    expect(clean.results[0].songs).toHaveLength(6);
    expect(ok(await call("GET", "/search?q=", alice)).results ?? []).toEqual([]);
    expect(ok(await call("GET", "/search/v2?q=%20%20", alice)).results ?? []).toEqual([]);
  });

  it("refuses bad paging and countries with a 400 naming the field", async () => {
    refused(await call("GET", `/search?q=${word}&limit=51`, alice), 400, /limit/);
    refused(await call("GET", `/search?q=${word}&offset=-1`, alice), 400, /offset/);
    refused(await call("GET", `/search/v2?q=${word}&country=USA`, alice), 400, /country/);
    refused(await call("GET", `/search?q=${"x".repeat(201)}`, alice), 400, /q/);
  });
});

describe("song data", () => {
  it("GET /song-data/{providerSongId}/{musicProvider} answers the catalogue's song; /providers its ids", async () => {
    const song = ok(await call("GET", `/song-data/${word}sp1/spotify`, alice)).song;
    expect(song).toMatchObject({ trackName: `Song ${word} 1`, songId: added[1].songId });
    const providers = ok(await call("GET", `/song-data/${word}sp1/spotify/providers`));
    expect(providers.musicProviders).toEqual({ sevenDigital: `${word}-1`, spotify: `${word}sp1` });
    refused(await call("GET", `/song-data/${word}-unknown/spotify`, alice), 404, "song not found");
    refused(await call("GET", `/song-data/x/notaprovider`, alice), 400, /musicProvider/);
  });

  it("GET /song-data/{providerSongId}/{musicProvider}/service is for services", async () => {
    refused(await call("GET", `/song-data/${word}sp1/spotify/service`, alice), 401);
    const service = await platform.serviceToken("room");
    expect(ok(await call("GET", `/song-data/${word}sp1/spotify/service`, service)).song.songId).toBe(added[1].songId);
  });

  it("GET /song-data/{link}: recognised hosts only", async () => {
    refused(
      await call("GET", `/song-data/${encodeURIComponent("https://example.com/track/1")}`),
      400,
      "link is not a recognised music link",
    );
    refused(
      await call("GET", `/song-data/${encodeURIComponent("https://www.deezer.com/track/1")}`),
      404,
      "song not found",
    );
    refused(
      await call("GET", `/song-data/${encodeURIComponent(`https://open.spotify.com/track/${word}zz`)}`),
      404,
      "song not found",
    );
  });

  it("stream and preview URLs; 404 when no provider streams the song here", async () => {
    refused(await call("GET", `/song-data/stream/US/${added[0].songId}?quality=high`), 404, "no stream for this song");
    refused(await call("GET", `/song-data/stream/US/${added[0].songId}?quality=ultra`), 400, /quality/);
    refused(await call("GET", `/song-data/preview/US/${added[0].songShortId}`), 404, "no preview for this song");
    refused(await call("GET", `/song-data/stream/US/${randomUUID()}`), 404, "song not found");
    refused(await call("GET", `/song-data/stream/USA/${added[0].songId}`), 400, /country/);
  });

  it("POST /song-data/migrate-links answers per link; signed-in callers only", async () => {
    const res = ok(await call("POST", "/song-data/migrate-links", alice, { links: ["https://example.com/a"] }));
    expect(res.links).toEqual([{ link: "https://example.com/a", error: "link is not a recognised music link" }]);
    refused(await call("POST", "/song-data/migrate-links", undefined, { links: ["https://example.com/a"] }), 401);
    refused(await call("POST", "/song-data/migrate-links", alice, {}), 400, "links missing in request");
  });
});

describe("POST /api/v1/track-import and /api/v1/playlists/{crateUuid}/tracks", () => {
  it("refuses unsupported providers and songs not in the catalogue with §5's and §8's messages", async () => {
    refused(
      await call("POST", "/api/v1/track-import", alice, { musicProvider: "youtube", providerId: "x" }),
      400,
      "Sorry, this song does not have any supported music providers to import from",
    );
    refused(
      await call("POST", "/api/v1/track-import", alice, { musicProvider: "spotify", providerId: `${word}-nope` }),
      404,
      "Sorry, this song is not in our catalog and can't be imported.",
    );
    refused(await call("POST", "/api/v1/track-import", undefined, { musicProvider: "spotify", providerId: "1" }), 401);
  });

  it("answers a catalogue song's id, which can be added to a crate once", async () => {
    const imported = ok(
      await call("POST", "/api/v1/track-import", bob, { musicProvider: "spotify", providerId: `${word}sp2` }),
    );
    expect(imported.id).toBe(added[2].songId);
    const crate = ok(await call("POST", "/crate", bob, { crateName: "Imported" }));
    const first = ok(
      await call("POST", `/api/v1/playlists/${crate.crateUuid}/tracks`, bob, { songId: imported.id, append: true }),
    );
    expect(first).toMatchObject({ added: true, crateSong: { position: 0, songId: imported.id } });
    const again = ok(
      await call("POST", `/api/v1/playlists/${crate.crateUuid}/tracks`, bob, { songId: imported.id, append: true }),
    );
    expect(again.added ?? false).toBe(false);
    refused(await call("POST", `/api/v1/playlists/${crate.crateUuid}/tracks`, alice, { songId: imported.id }), 403);
    refused(await call("POST", `/api/v1/playlists/not-a-uuid/tracks`, bob, { songId: imported.id }), 400, /crateUuid/);
  });
});

describe("similar songs, exports and the webhook without providers", () => {
  it("similar songs are empty; exports need a configured provider", async () => {
    const crate = ok(await call("POST", "/crate", alice, {}));
    expect(ok(await call("GET", `/crate/${crate.crateUuid}/similar`, alice)).songs ?? []).toEqual([]);
    refused(await call("GET", `/crate/${crate.crateUuid}/similar`, bob), 403);
    refused(
      await call("POST", "/exports/spotify", alice, { crateUuid: crate.crateUuid }),
      400,
      "Spotify is not configured",
    );
    refused(
      await call("POST", "/exports/apple", alice, { crateUuid: crate.crateUuid }),
      400,
      "Apple Music is not configured",
    );
    refused(await call("POST", "/exports/apple", undefined, { crateUuid: crate.crateUuid }), 401);
  });

  it("POST /cyanite/webhook refuses unsigned and wrongly signed bodies", async () => {
    const body = {
      version: "2",
      resource: { type: "SpotifyTrack", id: "x" },
      event: { type: "AudioAnalysisV6", status: "finished" },
    };
    refused(await call("POST", "/cyanite/webhook", undefined, body), 400, "signature missing in request");
    refused(
      await call("POST", "/cyanite/webhook", undefined, { ...body, signature: "ab".repeat(64) }),
      401,
      "invalid signature",
    );
    refused(await call("POST", "/cyanite/webhook", undefined, { ...body, signature: "not hex" }), 400, /signature/);
  });
});
