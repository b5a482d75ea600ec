import { startFakeServer, type FakeServer } from "@tt/kit/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createHttpSpotifyCatalog } from "./spotify.ts";
import { spotifyTrackJson } from "./testing/fixtures.ts";
import { clientCredentialsToken, type TokenSource } from "./token-source.ts";

let fake: FakeServer;
beforeAll(async () => {
  fake = await startFakeServer(() => ({ status: 500 }));
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
});

const catalog = () =>
  createHttpSpotifyCatalog({
    apiBaseUrl: fake.url,
    app: clientCredentialsToken({
      provider: "spotify",
      url: `${fake.url}/api/token`,
      clientId: "cid",
      clientSecret: "secret",
      timeoutMs: 2000,
    }),
    timeoutMs: 2000,
  });

let tokenNumber = 0;
function appTokens(req: { path: string; headers: Record<string, unknown> }) {
  if (req.path === "/api/token")
    return { status: 200, json: { access_token: `app-${++tokenNumber}`, expires_in: 3600 } };
  return undefined;
}

describe("Spotify Web API client", () => {
  it("reads a track with the app's client-credentials token and maps it", async () => {
    fake.setHandler((req) => appTokens(req) ?? { status: 200, json: spotifyTrackJson() });
    const track = await catalog().getTrack("4uLU6hMCjMI75M1A2tKUQC");
    expect(track).toMatchObject({
      provider: "spotify",
      providerId: "4uLU6hMCjMI75M1A2tKUQC",
      trackName: "Never Gonna Give You Up",
      artistName: "Rick Astley",
      isrc: "GBARL9300135",
      duration: 214,
      thumbnail: "https://i.scdn.co/a.jpg",
      releaseYear: 1987,
    });
    const [token, get] = fake.requests;
    expect(token?.form).toEqual({ grant_type: "client_credentials" });
    expect(token?.headers.authorization).toBe(`Basic ${Buffer.from("cid:secret").toString("base64")}`);
    expect(get?.path).toBe("/v1/tracks/4uLU6hMCjMI75M1A2tKUQC");
    expect(get?.headers.authorization).toMatch(/^Bearer app-\d+$/);
  });

  it("searches by isrc with q=isrc:… and type=track, and by term with offset", async () => {
    fake.setHandler(
      (req) => appTokens(req) ?? { status: 200, json: { tracks: { items: [spotifyTrackJson()], next: "n" } } },
    );
    const client = catalog();
    expect((await client.searchByIsrc("GBARL9300135"))?.isrc).toBe("GBARL9300135");
    const page = await client.search("rick", 20, 20);
    const searches = fake.requests.filter((r) => r.path === "/v1/search");
    expect(searches.map((r) => Object.fromEntries(r.query))).toEqual([
      { q: "isrc:GBARL9300135", type: "track", offset: "0", limit: "1" },
      { q: "rick", type: "track", offset: "20", limit: "20" },
    ]);
    expect(page.nextOffset).toBe(21);
  });

  it("refreshes the app token once on 401 and retries; a second 401 is thrown", async () => {
    let refusals = 1;
    fake.setHandler((req) => {
      const token = appTokens(req);
      if (token) return token;
      if (refusals > 0) return (refusals--, { status: 401, json: { error: { status: 401, message: "expired" } } });
      return { status: 200, json: spotifyTrackJson() };
    });
    const client = catalog();
    expect((await client.getTrack("x"))?.trackName).toBe("Never Gonna Give You Up");
    const paths = fake.requests.map((r) => r.path);
    expect(paths).toEqual(["/api/token", "/v1/tracks/x", "/api/token", "/v1/tracks/x"]);

    fake.requests.length = 0;
    fake.setHandler((req) => appTokens(req) ?? { status: 401, json: { error: { status: 401, message: "nope" } } });
    await expect(catalog().getTrack("x")).rejects.toMatchObject({ kind: "rejected", status: 401 });
    expect(fake.requests.filter((r) => r.path === "/v1/tracks/x")).toHaveLength(2);
  });

  it("answers undefined for an unknown track", async () => {
    fake.setHandler((req) => appTokens(req) ?? { status: 404, json: { error: { status: 404, message: "no" } } });
    expect(await catalog().getTrack("missing")).toBeUndefined();
  });

  it("reads a playlist's tracks page by page with the user's token, refreshed once on 401", async () => {
    let userToken = "u1";
    const user: TokenSource = { get: async () => userToken, refresh: async () => (userToken = "u2") };
    fake.setHandler((req) => {
      if (req.headers.authorization === "Bearer u1") return { status: 401, json: { error: "expired" } };
      if (req.path === "/v1/playlists/PL") return { status: 200, json: { name: "Road trip" } };
      const offset = Number(req.query.get("offset"));
      const items =
        offset === 0 ? [{ track: spotifyTrackJson("a") }, { track: null }] : [{ track: spotifyTrackJson("b") }];
      return { status: 200, json: { items, next: offset === 0 ? "more" : null } };
    });
    const result = await catalog().playlistTracks(user, "PL", 100);
    expect(result.name).toBe("Road trip");
    expect(result.tracks.map((t) => t.providerId)).toEqual(["a", "b"]);
    expect(fake.requests.filter((r) => r.headers.authorization === "Bearer u1")).toHaveLength(1);
  });

  it("exports: creates a private playlist in the user's account and adds spotify:track URIs", async () => {
    const user: TokenSource = { get: async () => "u", refresh: async () => "u" };
    fake.setHandler((req) => {
      if (req.path === "/v1/me") return { status: 200, json: { id: "alice" } };
      if (req.path === "/v1/users/alice/playlists") {
        return {
          status: 201,
          json: { id: "NEW", external_urls: { spotify: "https://open.spotify.com/playlist/NEW" } },
        };
      }
      return { status: 201, json: { snapshot_id: "s" } };
    });
    const created = await catalog().createPlaylist(user, "My crate", ["a", "b"]);
    expect(created).toEqual({ id: "NEW", link: "https://open.spotify.com/playlist/NEW" });
    expect(fake.requests.find((r) => r.path === "/v1/users/alice/playlists")?.json).toEqual({
      name: "My crate",
      public: false,
    });
    expect(fake.requests.find((r) => r.path === "/v1/playlists/NEW/tracks")?.json).toEqual({
      uris: ["spotify:track:a", "spotify:track:b"],
    });
  });
});
