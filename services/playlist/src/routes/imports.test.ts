// ImportService and POST /crate with an import, through the host: §5's provider order and messages, adding
// a catalogue song to a crate, and playlist imports as durable jobs against a recording fake of Spotify —
// progress, COMPLETE, a worker that fails halfway resuming where it stopped with no song added twice, and
// another user's crate refused.
import { randomUUID } from "node:crypto";
import { Code } from "@connectrpc/connect";
import {
  createServiceHarness,
  eventually,
  type FakeServer,
  type ServiceHarness,
  startFakeServer,
  codeAndMessageOf,
} from "@tt/kit/testing";
import { CrateService } from "@tt/proto/tt/playlist/v1/crate_service_pb";
import { ImportService } from "@tt/proto/tt/playlist/v1/import_service_pb";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { playlistServiceDefinition } from "../index.ts";
import { NO_SUPPORTED_PROVIDER, NOT_IN_CATALOG } from "../music/import-providers.ts";
import { spotifyTrackJson, fakeSpotifyEnv } from "../providers/testing/fixtures.ts";

let h: ServiceHarness;
let spotify: FakeServer;
/** Tracks of the fake playlist "PL", 7 of them, served 2 per page. */
const PLAYLIST = Array.from({ length: 7 }, (_, i) => ({
  ...spotifyTrackJson(`trk${i}${randomUUID().slice(0, 6)}`, `USAAA${String(1000000 + i)}`),
  name: `Imported ${i}`,
}));
let failNextPageAt: number | undefined;

function playlistAnswer(offset: number, limit: number) {
  const items = PLAYLIST.slice(offset, offset + limit).map((track) => ({ track }));
  return { items, total: PLAYLIST.length, next: offset + limit < PLAYLIST.length ? "more" : null };
}

beforeAll(async () => {
  spotify = await startFakeServer((req) => {
    if (req.path === "/api/token") return { status: 200, json: { access_token: "app", expires_in: 3600 } };
    if (req.path === "/v1/playlists/PL/tracks") {
      const offset = Number(req.query.get("offset"));
      if (failNextPageAt === offset) {
        failNextPageAt = undefined;
        return { status: 503, json: { error: { status: 503, message: "busy" } } };
      }
      return { status: 200, json: playlistAnswer(offset, Number(req.query.get("limit"))) };
    }
    if (req.path === "/v1/playlists/GONE/tracks") return { status: 404, json: { error: { status: 404 } } };
    if (req.path.startsWith("/v1/tracks/")) {
      const id = req.path.slice("/v1/tracks/".length);
      return id === "missing"
        ? { status: 404, json: { error: { status: 404, message: "not found" } } }
        : {
            status: 200,
            json: { ...spotifyTrackJson(id, `USBBB${id.slice(0, 7).padEnd(7, "0")}`), name: `Song ${id}` },
          };
    }
    return { status: 404, json: {} };
  });
  h = await createServiceHarness(playlistServiceDefinition, {
    network: false,
    env: {
      ...fakeSpotifyEnv(spotify.url),
      PROVIDER_TIMEOUT_MS: "3000",
      IMPORT_PAGE_SIZE: "2",
      IMPORT_RETRY_MS: "100",
      IMPORT_DURABLE: `playlist-imports-test-${randomUUID()}`,
    },
  });
});
afterAll(async () => {
  await h?.close();
  await spotify?.close();
});
beforeEach(() => {
  spotify.requests.length = 0;
});

describe("POST /api/v1/track-import", () => {
  it("imports a Spotify track into the catalogue and answers its song id; a second import finds the same song", async () => {
    const importer = h.client(ImportService, { token: await h.tokens.user() });
    const first = await importer.importTrack({ musicProvider: "spotify", providerId: "abc123" });
    expect(first.id).toBe(first.song?.songId);
    expect(first.song).toMatchObject({ trackName: "Song abc123", status: "SUCCESS" });
    expect(first.song?.musicProviders).toMatchObject({ spotify: "abc123" });
    spotify.requests.length = 0;
    const again = await importer.importTrack({ musicProvider: "spotify", providerId: "abc123" });
    expect(again.id).toBe(first.id);
    // Complete songs are not fetched again (002 §4)… the song has one provider, so it is only complete by
    // its SUCCESS status.
    expect(spotify.requests.filter((r) => r.path.startsWith("/v1/tracks/"))).toHaveLength(0);
  });

  it.each([
    ["youtube", "dQw4w9WgXcQ", Code.InvalidArgument, NO_SUPPORTED_PROVIDER],
    ["deezer", "1", Code.InvalidArgument, NO_SUPPORTED_PROVIDER],
    ["spotify", "missing", Code.NotFound, NOT_IN_CATALOG],
    ["uploadService", "424242", Code.NotFound, NOT_IN_CATALOG],
    ["apple", "1440857786", Code.NotFound, NOT_IN_CATALOG],
  ])("%s %s → %s %s", async (musicProvider, providerId, code, message) => {
    const importer = h.client(ImportService, { token: await h.tokens.user() });
    expect(await codeAndMessageOf(importer.importTrack({ musicProvider, providerId }))).toEqual([code, message]);
  });

  it("refuses an unknown provider name and a missing id before the handler", async () => {
    const importer = h.client(ImportService, { token: await h.tokens.user() });
    expect((await codeAndMessageOf(importer.importTrack({ musicProvider: "napsterz", providerId: "1" })))[0]).toBe(
      Code.InvalidArgument,
    );
    expect(await codeAndMessageOf(importer.importTrack({ musicProvider: "spotify", providerId: "" }))).toEqual([
      Code.InvalidArgument,
      "providerId missing in request",
    ]);
  });
});

describe("POST /api/v1/playlists/{crateUuid}/tracks", () => {
  it("adds a catalogue song at the end with append, at the top without, and never twice", async () => {
    const token = await h.tokens.user();
    const importer = h.client(ImportService, { token });
    const crates = h.client(CrateService, { token });
    const crate = (await crates.createCrate({ crateName: "Mix" })).crate!;
    const a = (await importer.importTrack({ musicProvider: "spotify", providerId: "aaa111" })).id;
    const b = (await importer.importTrack({ musicProvider: "spotify", providerId: "bbb222" })).id;
    await importer.addPlaylistTrack({ crateUuid: crate.crateUuid, songId: a, append: true });
    const top = await importer.addPlaylistTrack({ crateUuid: crate.crateUuid, songId: b, append: false });
    expect(top).toMatchObject({ added: true, crateSong: { position: 0, songId: b } });
    const again = await importer.addPlaylistTrack({ crateUuid: crate.crateUuid, songId: a, append: true });
    expect(again).toMatchObject({ added: false, crateSong: { position: 1, songId: a } });
    const { songs } = await crates.listCrateSongs({ crateUuid: crate.crateUuid });
    expect(songs.map((s) => s.songId)).toEqual([b, a]);
  });

  it("refuses another user's crate (403) and unknown crates and songs (404)", async () => {
    const owner = h.client(CrateService, { token: await h.tokens.user() });
    const crate = (await owner.createCrate({ crateName: "Theirs" })).crate!;
    const otherToken = await h.tokens.user();
    const other = h.client(ImportService, { token: otherToken });
    const songId = (await other.importTrack({ musicProvider: "spotify", providerId: "ccc333" })).id;
    expect(
      await codeAndMessageOf(other.addPlaylistTrack({ crateUuid: crate.crateUuid, songId, append: true })),
    ).toEqual([Code.PermissionDenied, "crate belongs to another user"]);
    expect(await codeAndMessageOf(other.addPlaylistTrack({ crateUuid: randomUUID(), songId, append: true }))).toEqual([
      Code.NotFound,
      "crate not found",
    ]);
    const own = (await h.client(CrateService, { token: otherToken }).createCrate({})).crate!;
    expect(await codeAndMessageOf(other.addPlaylistTrack({ crateUuid: own.crateUuid, songId: randomUUID() }))).toEqual([
      Code.NotFound,
      "song not found",
    ]);
  });
});

describe("playlist imports (POST /crate with an import)", () => {
  it("runs as a job: IN_PROGRESS, then COMPLETE with every track once and the progress counts", async () => {
    const token = await h.tokens.user();
    const crates = h.client(CrateService, { token });
    const importer = h.client(ImportService, { token });
    const created = (
      await crates.createCrate({
        crateName: "Road trip",
        import: { musicProvider: "spotify", link: "https://open.spotify.com/playlist/PL?si=x" },
      })
    ).crate!;
    expect(created.importStatus).toBe("IN_PROGRESS");
    const done = await eventually("the import to complete", async () => {
      const { progress } = await importer.getCrateImport({ crateUuid: created.crateUuid });
      return progress?.importStatus === "COMPLETE" ? progress : undefined;
    });
    expect(done).toMatchObject({ total: 7, processed: 7, added: 7, skipped: 0, musicProvider: "spotify" });
    const crate = (await crates.getCrate({ crateId: created.crateUuid })).crate!;
    expect(crate.importStatus).toBe("COMPLETE");
    const { songs } = await crates.listCrateSongs({ crateUuid: created.crateUuid });
    expect(songs.map((s) => s.trackName)).toEqual(PLAYLIST.map((t) => t.name));
  });

  it("a worker that fails halfway resumes at its first uncommitted page: COMPLETE, no song twice", async () => {
    const token = await h.tokens.user();
    const crates = h.client(CrateService, { token });
    const importer = h.client(ImportService, { token });
    failNextPageAt = 4; // pages 0 and 2 are committed, then the provider fails: the delivery ends in error
    const created = (await crates.createCrate({ import: { musicProvider: "spotify", playlistId: "PL" } })).crate!;
    const done = await eventually("the import to resume and complete", async () => {
      const { progress } = await importer.getCrateImport({ crateUuid: created.crateUuid });
      return progress?.importStatus === "COMPLETE" ? progress : undefined;
    });
    expect(done).toMatchObject({ processed: 7, added: 7 });
    const offsets = spotify.requests
      .filter((r) => r.path === "/v1/playlists/PL/tracks")
      .map((r) => Number(r.query.get("offset")));
    // The second delivery started at offset 4, not again at 0.
    expect(offsets).toEqual([0, 2, 4, 4, 6]);
    const { songs, total } = await crates.listCrateSongs({ crateUuid: created.crateUuid });
    expect(total).toBe(7);
    expect(new Set(songs.map((s) => s.songId)).size).toBe(7);
  });

  it("FAILED with §8's message when the provider does not have the playlist", async () => {
    const token = await h.tokens.user();
    const crates = h.client(CrateService, { token });
    const created = (await crates.createCrate({ import: { musicProvider: "spotify", playlistId: "GONE" } })).crate!;
    const failed = await eventually("the import to fail", async () => {
      const { progress } = await h.client(ImportService, { token }).getCrateImport({ crateUuid: created.crateUuid });
      return progress?.importStatus === "FAILED" ? progress : undefined;
    });
    expect(failed.message).toBe("Error fetching playlist");
    expect((await crates.getCrate({ crateId: created.crateUuid })).crate?.importStatus).toBe("FAILED");
  });

  it("refuses what cannot be imported, before creating a crate", async () => {
    const crates = h.client(CrateService, { token: await h.tokens.user() });
    expect(
      await codeAndMessageOf(crates.createCrate({ import: { musicProvider: "youtube", playlistId: "x" } })),
    ).toEqual([Code.InvalidArgument, NO_SUPPORTED_PROVIDER]);
    expect(
      await codeAndMessageOf(crates.createCrate({ import: { musicProvider: "apple", playlistId: "pl.x" } })),
    ).toEqual([Code.FailedPrecondition, "Apple Music is not configured"]);
    expect(await codeAndMessageOf(crates.createCrate({ import: { musicProvider: "spotify" } }))).toEqual([
      Code.InvalidArgument,
      "import.playlistId missing in request",
    ]);
    expect(
      await codeAndMessageOf(
        crates.createCrate({ import: { musicProvider: "spotify", link: "https://example.com/playlist/1" } }),
      ),
    ).toEqual([Code.InvalidArgument, "import.link is not a Spotify playlist link"]);
    const { crates: mine } = await crates.listMyCrates({});
    expect(mine.filter((c) => c.special === "")).toHaveLength(0);
  });

  it("another user's import progress is refused", async () => {
    const owner = h.client(CrateService, { token: await h.tokens.user() });
    const created = (await owner.createCrate({ import: { musicProvider: "spotify", playlistId: "PL" } })).crate!;
    const other = h.client(ImportService, { token: await h.tokens.user() });
    expect(await codeAndMessageOf(other.getCrateImport({ crateUuid: created.crateUuid }))).toEqual([
      Code.PermissionDenied,
      "crate belongs to another user",
    ]);
  });
});
