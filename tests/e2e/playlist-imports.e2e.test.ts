/* eslint-disable @typescript-eslint/no-explicit-any -- the suite reads REST answers as plain JSON */
// Imports and exports over REST through the gateway, with Spotify and Apple Music played by one recording
// fake: POST /crate with an import runs as a background job (IN_PROGRESS until COMPLETE, progress readable,
// another user refused), a track import and /api/v1/playlists/{crateUuid}/tracks, and exports to Spotify and
// Apple Music with the tokens the user linked in the user service (the user's Spotify token refreshed once on
// 401, spec 002 §8).
import { randomUUID } from "node:crypto";
import { eventually, type FakeAnswer, type FakeServer, type RecordedRequest, startFakeServer } from "@tt/kit/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeProvidersEnv } from "@tt/user-service/testing/fake-providers-env";
import { startTestPlatform, type Answer, type TestPlatform } from "./support/platform.ts";

let platform: TestPlatform;
let fake: FakeServer;
let alice: { token: string; uuid: string };
let bob: { token: string; uuid: string };

const track = (i: number) => ({
  id: `imp${i}x`,
  name: `Imported ${i}`,
  duration_ms: 180_000 + i * 1000,
  explicit: false,
  external_ids: { isrc: `USIMP${String(1000000 + i)}` },
  external_urls: { spotify: `https://open.spotify.com/track/imp${i}x` },
  artists: [{ name: "Importer" }],
  album: { name: "Imports", images: [{ url: `https://i.test/${i}.jpg` }] },
});
const PLAYLIST = Array.from({ length: 5 }, (_, i) => track(i));
/** The user's Spotify access token the fake accepts; the first one it hands out is refused once. */
let refuseUserToken = "";

const ok200 = (json: unknown): FakeAnswer => ({ status: 200, json });
function route(req: RecordedRequest): FakeAnswer {
  const key = `${req.method} ${req.path}`;
  if (key === "POST /api/token") {
    if (req.form.grant_type === "client_credentials") return ok200({ access_token: "app", expires_in: 3600 });
    if (req.form.grant_type === "authorization_code") {
      return ok200({ access_token: "user-1", refresh_token: "rt", expires_in: 3600, token_type: "Bearer" });
    }
    return ok200({ access_token: "user-2", expires_in: 3600, token_type: "Bearer" });
  }
  if (key === "GET /v1/me") {
    if (refuseUserToken !== "" && req.headers.authorization === `Bearer ${refuseUserToken}`) {
      return { status: 401, json: { error: { status: 401, message: "The access token expired" } } };
    }
    return ok200({ id: "alice-sp", email: "alice@sp.test", product: "premium" });
  }
  if (key === "GET /v1/playlists/PLE2E/tracks") {
    const offset = Number(req.query.get("offset"));
    const limit = Number(req.query.get("limit"));
    return ok200({
      items: PLAYLIST.slice(offset, offset + limit).map((t) => ({ track: t })),
      total: PLAYLIST.length,
      next: offset + limit < PLAYLIST.length ? "more" : null,
    });
  }
  if (req.path.startsWith("/v1/tracks/")) {
    const id = req.path.slice("/v1/tracks/".length);
    const known = PLAYLIST.find((t) => t.id === id);
    return known ? ok200(known) : { status: 404, json: { error: { status: 404 } } };
  }
  if (key === "POST /v1/users/alice-sp/playlists")
    return {
      status: 201,
      json: { id: "EXPORTED", external_urls: { spotify: "https://open.spotify.com/playlist/EXPORTED" } },
    };
  if (key === "POST /v1/playlists/EXPORTED/tracks") return { status: 201, json: { snapshot_id: "s" } };
  if (key === "GET /v1/catalog/us/songs") {
    const isrc = req.query.get("filter[isrc]") ?? "";
    return ok200({ data: [{ id: `ap-${isrc}`, type: "songs", attributes: { name: "x", artistName: "y", isrc } }] });
  }
  if (key === "POST /v1/me/library/playlists") return { status: 201, json: { data: [{ id: "p.LIB" }] } };
  // SoundCloud: the app's and the user's tokens, the public search and the user's own tracks.
  if (key === "POST /oauth2/token") {
    return ok200({
      access_token: req.form.grant_type === "client_credentials" ? "sc-app" : "sc-user",
      refresh_token: "sc-rt-2",
      expires_in: 3600,
    });
  }
  if (key === "GET /v1/search") return ok200({ tracks: { items: [], next: null } });
  if (key === "GET /v1/catalog/us/search") return ok200({ results: {} });
  if (key === "GET /tracks")
    return ok200({ collection: [{ id: 5, title: "Public night", duration: 1000, user: { username: "P" } }] });
  if (key === "GET /me/tracks") {
    if (req.headers.authorization !== "OAuth sc-user") return { status: 403, json: { error: "forbidden" } };
    return ok200({
      collection: [
        { id: 7, title: "My Night Mix", duration: 2000, user: { username: "me" } },
        { id: 8, title: "Morning", duration: 2000, user: { username: "me" } },
      ],
    });
  }
  return { status: 404, json: { error: "not_found" } };
}

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
  fake = await startFakeServer(route);
  platform = await startTestPlatform({
    env: {
      ...fakeProvidersEnv(fake.url),
      APPLE_MUSIC_API_BASE_URL: fake.url,
      APPLE_MUSIC_DEVELOPER_TOKEN: "dev-token",
      SOUNDCLOUD_API_BASE_URL: fake.url,
      IMPORT_PAGE_SIZE: "2",
      IMPORT_DURABLE: `e2e-imports-${randomUUID().slice(0, 8)}`,
      CATALOGUE_UPLOAD_DURABLE: `e2e-imports-uploads-${randomUUID().slice(0, 8)}`,
    },
  });
  const a = await platform.signUp();
  const b = await platform.signUp();
  alice = { token: a.token, uuid: a.user.uuid };
  bob = { token: b.token, uuid: b.user.uuid };
});
afterAll(async () => {
  await platform?.close();
  await fake?.close();
});

describe("POST /crate with an import", () => {
  it("creates the crate IN_PROGRESS and fills it in the background until COMPLETE", async () => {
    const crate = ok(
      await call("POST", "/crate", alice.token, {
        crateName: "From Spotify",
        import: { musicProvider: "spotify", link: "https://open.spotify.com/playlist/PLE2E" },
      }),
    );
    expect(crate.importStatus).toBe("IN_PROGRESS");
    const progress = await eventually(
      "the import to complete",
      async () => ok(await call("GET", `/crate/${crate.crateUuid}/import`, alice.token)),
      (res) => res.importStatus === "COMPLETE",
    );
    expect(progress).toMatchObject({ total: 5, processed: 5, added: 5 });
    const songs = ok(await call("GET", `/crate/${crate.crateUuid}/songs?limit=300&offset=0`, alice.token));
    expect(songs.songs.map((s: any) => s.trackName)).toEqual(PLAYLIST.map((t) => t.name));
    expect(ok(await call("GET", `/crate/${crate.crateUuid}`, alice.token)).importStatus).toBe("COMPLETE");
    refused(await call("GET", `/crate/${crate.crateUuid}/import`, bob.token), 403, "crate belongs to another user");
  });

  it("refuses what cannot be imported with §5's message and bad input with a 400", async () => {
    refused(
      await call("POST", "/crate", alice.token, { import: { musicProvider: "youtube", playlistId: "x" } }),
      400,
      "Sorry, this song does not have any supported music providers to import from",
    );
    refused(await call("POST", "/crate", alice.token, { import: { musicProvider: "nope" } }), 400, /musicProvider/);
    refused(
      await call("POST", "/crate", undefined, { import: { musicProvider: "spotify", playlistId: "PLE2E" } }),
      401,
    );
  });
});

describe("track import", () => {
  it("imports a Spotify track and adds it to a crate once", async () => {
    const imported = ok(
      await call("POST", "/api/v1/track-import", bob.token, { musicProvider: "spotify", providerId: "imp3x" }),
    );
    expect(imported.song).toMatchObject({ trackName: "Imported 3", isrc: "USIMP1000003" });
    const crate = ok(await call("POST", "/crate", bob.token, {}));
    ok(
      await call("POST", `/api/v1/playlists/${crate.crateUuid}/tracks`, bob.token, {
        songId: imported.id,
        append: true,
      }),
    );
    const again = ok(
      await call("POST", `/api/v1/playlists/${crate.crateUuid}/tracks`, bob.token, { songId: imported.id }),
    );
    expect(again.added ?? false).toBe(false);
    refused(
      await call("POST", "/api/v1/track-import", bob.token, { musicProvider: "spotify", providerId: "unknown1" }),
      404,
      "Sorry, this song is not in our catalog and can't be imported.",
    );
  });
});

describe("exports", () => {
  it("POST /exports/spotify needs a linked account, then creates the playlist (the user's token refreshed once)", async () => {
    const crate = ok(await call("POST", "/crate", alice.token, { crateName: "To export" }));
    ok(
      await call("POST", `/crate/${crate.crateUuid}/songs`, alice.token, {
        songs: [
          { trackName: "Has id", artistName: "A", musicProviders: { spotify: "imp1x" } },
          { trackName: "By isrc", artistName: "B", isrc: "USIMP1000002" },
          { trackName: "Nowhere", artistName: "C", musicProviders: { youtube: "yt" } },
        ],
      }),
    );
    refused(
      await call("POST", "/exports/spotify", alice.token, { crateUuid: crate.crateUuid }),
      400,
      "Spotify is not connected",
    );
    const link = await platform.call("POST", "/api/user-service/spotify/exchange-code", {
      token: alice.token,
      body: { code: "good", redirectUri: "https://tt.example/cb" },
    });
    expect(link.status, JSON.stringify(link.body)).toBe(200);
    refused(await call("POST", "/exports/spotify", bob.token, { crateUuid: crate.crateUuid }), 403);

    refuseUserToken = "user-1";
    fake.requests.length = 0;
    const exported = ok(
      await call("POST", "/exports/spotify", alice.token, { crateUuid: crate.crateUuid, name: "My export" }),
    );
    // "By isrc" is the imported song with that isrc (the same-track rule), so it carries its Spotify id.
    expect(exported).toMatchObject({
      playlistId: "EXPORTED",
      link: "https://open.spotify.com/playlist/EXPORTED",
      exported: 2,
      skipped: 1,
    });
    const created = fake.requests.find((r) => r.path === "/v1/users/alice-sp/playlists");
    expect(created?.json).toEqual({ name: "My export", public: false });
    const adds = fake.requests.find((r) => r.path === "/v1/playlists/EXPORTED/tracks");
    expect(adds?.json).toEqual({ uris: ["spotify:track:imp1x", "spotify:track:imp2x"] });
    // The refused token was refreshed once (the user service asked Spotify for a new one) and the call retried
    // once with it.
    expect(fake.requests.filter((r) => r.path === "/v1/me").map((r) => r.headers.authorization)).toEqual([
      "Bearer user-1",
      "Bearer user-2",
    ]);
    expect(fake.requests.filter((r) => r.path === "/api/token").map((r) => r.form.grant_type)).toEqual([
      "refresh_token",
    ]);
    expect(created?.headers.authorization).toBe("Bearer user-2");
  });

  it("POST /exports/apple with the user's Music User Token", async () => {
    const crate = ok(await call("POST", "/crate", bob.token, { crateName: "Apple export" }));
    ok(
      await call("POST", `/crate/${crate.crateUuid}/songs`, bob.token, {
        songs: [{ trackName: "By isrc", artistName: "B", isrc: "USIMP1000004" }],
      }),
    );
    refused(
      await call("POST", "/exports/apple", bob.token, { crateUuid: crate.crateUuid }),
      400,
      "Apple Music is not connected",
    );
    const saved = await platform.call("POST", "/api/user-service/apple/user-token", {
      token: bob.token,
      body: { musicUserToken: "mut-bob" },
    });
    expect(saved.status).toBe(200);
    fake.requests.length = 0;
    const exported = ok(await call("POST", "/exports/apple", bob.token, { crateUuid: crate.crateUuid }));
    expect(exported).toMatchObject({ playlistId: "p.LIB", exported: 1 });
    const sent = fake.requests.find((r) => r.path === "/v1/me/library/playlists");
    expect(sent?.headers["music-user-token"]).toBe("mut-bob");
    expect(sent?.json).toMatchObject({ attributes: { name: "Apple export" } });
  });
});

describe("search with providers configured", () => {
  it("lists the user's own SoundCloud tracks (name filter in any case) once they linked SoundCloud", async () => {
    const before = ok(await call("GET", "/search?q=NIGHT", alice.token));
    expect(before.results.map((r: any) => r.musicProvider)).not.toContain("soundcloud");
    expect(before.results.find((r: any) => r.musicProvider === "soundCloudPublic").songs[0].trackName).toBe(
      "Public night",
    );
    const linked = await platform.call("POST", "/api/user-service/soundcloud/refresh-token", {
      token: alice.token,
      body: { refreshToken: "sc-rt-1" },
    });
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    const after = ok(await call("GET", "/search?q=NIGHT", alice.token));
    const mine = after.results.find((r: any) => r.musicProvider === "soundcloud");
    expect(mine.songs.map((song: any) => song.trackName)).toEqual(["My Night Mix"]);
  });
});
