/* eslint-disable @typescript-eslint/no-explicit-any -- the suite reads REST answers as plain JSON */
// The catalogue and recent-songs paths of the playlist service over REST through the gateway: the service
// variants (/crate/service/…, /albums/service/…, /artists/service/…), GET /api/v1/songs with filters and by id,
// POST/GET /rooms/{slug}/recent-songs, and an upload event published on the bus becoming a catalogue song.
import { randomUUID } from "node:crypto";
import { create, toBinary } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { AGGREGATE_ID_HEADER, createNatsBus, EVENT_ID_HEADER, type Bus } from "@tt/kit";
import { UploadedSongPublishedSchema, UploadedSongRemovedSchema } from "@tt/proto/tt/upload/v1/events_pb";
import { sharedPlatform, type Answer, type TestPlatform } from "./support/platform.ts";
import { eventually } from "@tt/kit/testing";

let platform: TestPlatform;
let bus: Bus;
let user: string;
let userUuid: string;
let service: string;
let admin: string;
const run = randomUUID().slice(0, 8);

const p = (path: string) => `/api/playlist-service${path}`;
const call = (method: string, path: string, token: string | undefined, body?: unknown) =>
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
  bus = await createNatsBus({
    url: inject("natsUrl"),
    name: `playlist-catalogue-e2e-${run}`,
    deployment: platform.deploymentName,
  });
  const a = await platform.signUp();
  user = a.token;
  userUuid = a.user.uuid;
  service = await platform.serviceToken("room");
  admin = await platform.adminToken();
});
afterAll(async () => {
  await bus?.close();
});

describe("the catalogue through the gateway", () => {
  it("takes an upload published on the bus (uploadService id, HLS stream URL, demo label) and its removal", async () => {
    const songUuid = randomUUID();
    const songId = BigInt(Math.floor(Math.random() * 1e9));
    const hls = `/api/upload-service/media/${songUuid}/master.m3u8`;
    const published = create(UploadedSongPublishedSchema, {
      songUuid,
      songId,
      ownerUuid: userUuid,
      trackName: `Uploaded ${run}`,
      artistName: "Bedroom Producer",
      albumName: "Demos",
      duration: 93,
      hlsPlaylistUrl: hls,
      public: true,
      demo: true,
    });
    await bus.publishDurable("tt.upload.song.published", toBinary(UploadedSongPublishedSchema, published), {
      headers: { [EVENT_ID_HEADER]: randomUUID(), [AGGREGATE_ID_HEADER]: songUuid },
    });
    const query = `/api/v1/songs?musicProvider=uploadService&providerId=${songId}`;
    const song = await eventually(
      "the uploaded song in the catalogue",
      async () => ok(await call("GET", query, user)).songs[0],
    );
    expect(song).toMatchObject({
      trackName: `Uploaded ${run}`,
      demo: true,
      status: "VERIFIED",
      available: true,
      musicProviders: { uploadService: String(songId) },
      streamUrls: { uploadService: { hls } },
    });
    expect(ok(await call("GET", `/api/v1/songs/${song.songId}`, user))).toMatchObject({
      song: { trackName: `Uploaded ${run}` },
    });
    // Into a crate by its catalogue id.
    const added = ok(await call("POST", "/crate/special/likes/songs", user, { songs: [{ songId: song.songId }] }));
    expect(added.songs[0]).toMatchObject({ songId: song.songId, streamUrls: { uploadService: { hls } } });

    const removed = create(UploadedSongRemovedSchema, { songUuid, songId, ownerUuid: userUuid });
    await bus.publishDurable("tt.upload.song.removed", toBinary(UploadedSongRemovedSchema, removed), {
      headers: { [EVENT_ID_HEADER]: randomUUID(), [AGGREGATE_ID_HEADER]: songUuid },
    });
    await eventually("the removal", async () =>
      ok(await call("GET", query, user)).songs.length === 0 ? true : undefined,
    );
    // The crate keeps it, no longer playable.
    const likes = ok(await call("GET", "/crate/special/likes/songs", user));
    expect(likes.songs[0]).toMatchObject({ songId: song.songId, available: false });
  });

  it("GET /api/v1/songs filters, pages and refuses bad input", async () => {
    const tag = `cat${run}`;
    ok(
      await call("POST", "/crate/special/queue/songs", user, {
        songs: [
          { trackName: `${tag} alpha`, artistName: `${tag} band`, explicit: true, isrc: "USABC2400001" },
          { trackName: `${tag} beta`, artistName: `${tag} band`, genre: "Pop" },
          { trackName: `${tag} gamma`, artistName: "solo" },
        ],
      }),
    );
    const guest = await platform.craft({ typ: "guest", role: "guest" });
    expect(ok(await call("GET", `/api/v1/songs?q=${tag}`, guest)).total).toBe(3);
    expect(ok(await call("GET", `/api/v1/songs?q=${tag}&explicit=false`, guest)).total).toBe(2);
    expect(ok(await call("GET", `/api/v1/songs?isrc=USABC2400001`, guest)).songs.map((s: any) => s.trackName)).toEqual([
      `${tag} alpha`,
    ]);
    expect(ok(await call("GET", `/api/v1/songs?artistName=${encodeURIComponent(`${tag} BAND`)}`, guest)).total).toBe(2);
    expect(ok(await call("GET", `/api/v1/songs?q=${tag}&genre=pop`, guest)).songs.map((s: any) => s.trackName)).toEqual(
      [`${tag} beta`],
    );
    const page = ok(await call("GET", `/api/v1/songs?q=${tag}&limit=2&offset=2`, guest));
    expect(page).toMatchObject({ total: 3, limit: 2, offset: 2 });
    refused(await call("GET", "/api/v1/songs?limit=1000", guest), 400, /limit/);
    refused(await call("GET", "/api/v1/songs?musicProvider=myspace", guest), 400, /musicProvider/);
    refused(await call("GET", "/api/v1/songs/not-a-uuid", guest), 400, /songId|song_id/);
    refused(await call("GET", `/api/v1/songs/${randomUUID()}`, guest), 404, "song not found");
    refused(await call("GET", "/api/v1/songs", undefined), 401);
  });

  it("the service variants read crates, albums, artists and songs by short id (services and admins only)", async () => {
    const tag = `svc${run}`;
    const crate = ok(await call("POST", "/crate", user, { crateName: `${tag} crate` }));
    ok(
      await call("POST", `/crate/${crate.crateUuid}/songs`, user, {
        songs: [
          { trackName: "One", artistName: `${tag} artist`, albumName: `${tag} album`, releaseYear: 1999 },
          { trackName: "Two", artistName: `${tag} artist`, albumName: `${tag} album` },
          { trackName: "Three", artistName: `${tag} other`, albumName: `${tag} second` },
        ],
      }),
    );
    const all = ok(await call("GET", "/crate/service/all-crates?take=100&skip=0", service));
    const listed = all.crates.find((c: any) => c.crateUuid === crate.crateUuid);
    expect(listed).toBeDefined();
    refused(await call("GET", "/crate/service/all-crates?take=101", service), 400, /take/);
    const songs = ok(await call("GET", `/crate/service/${listed.crateShortId}/songs`, service));
    expect(songs.songs.map((s: any) => s.trackName)).toEqual(["One", "Two", "Three"]);
    const one = ok(await call("GET", `/albums/service/${songs.songs[0].songShortId}/song`, service)).song;
    expect(one).toMatchObject({ trackName: "One", albumName: `${tag} album`, releaseYear: 1999 });
    const album = ok(await call("GET", `/albums/service/${one.albumShortId}/songs`, service));
    expect(album.songs.map((s: any) => s.trackName)).toEqual(["One", "Two"]);
    expect(ok(await call("GET", "/albums/service/all-albums?take=100", service)).total).toBeGreaterThanOrEqual(2);
    expect(ok(await call("GET", "/albums/service/all-songs?take=2", service)).songs).toHaveLength(2);
    expect(ok(await call("GET", "/artists/service/all-artists", admin)).total).toBeGreaterThanOrEqual(2);
    const albums = ok(await call("GET", `/artists/service/${one.artistShortId}/albums`, service));
    expect(albums.albums.map((a: any) => a.albumName)).toEqual([`${tag} album`]);
    const three = ok(await call("GET", `/albums/service/${songs.songs[2].songShortId}/song`, service)).song;
    const grouped = ok(
      await call("POST", "/artists/service/albums-by-artists", service, {
        artistShortIds: [one.artistShortId, three.artistShortId],
      }),
    );
    expect(grouped.artists.map((a: any) => a.albums.map((x: any) => x.albumName))).toEqual([
      [`${tag} album`],
      [`${tag} second`],
    ]);
    refused(await call("GET", "/albums/service/zzzzzzzz/song", service), 404, "song not found");
    refused(await call("GET", "/albums/service/bad!id/song", service), 400);
    refused(await call("POST", "/artists/service/albums-by-artists", service, {}), 400, /artistShortIds/);
    // A user's token is refused (every access refusal is 401).
    refused(await call("GET", "/crate/service/all-crates", user), 401);
    refused(await call("GET", "/albums/service/all-albums", user), 401);
  });
});

describe("recent songs through the gateway", () => {
  it("the live stage posts plays by room uuid; GET pages songPlays newest first; a new slug keeps the history", async () => {
    const roomUuid = randomUUID();
    const slug = `room-${run}`;
    for (const n of [1, 2, 3]) {
      ok(
        await call("POST", `/rooms/${slug}/recent-songs`, service, {
          roomUuid,
          djUuid: randomUUID(),
          song: { trackName: `Played ${n}`, artistName: "Live", duration: 60 },
          playedAt: new Date(Date.now() - (10 - n) * 1000).toISOString(),
        }),
      );
    }
    const got = ok(await call("GET", `/rooms/${slug}/recent-songs?limit=2&offset=0`, undefined));
    expect(got).toMatchObject({ total: 3, limit: 2, offset: 0 });
    expect(got.songPlays.map((s: any) => s.song.trackName)).toEqual(["Played 3", "Played 2"]);
    ok(
      await call("POST", `/rooms/${slug}-new/recent-songs`, service, {
        roomUuid,
        song: { trackName: "Played 4", artistName: "Live" },
      }),
    );
    expect(ok(await call("GET", `/rooms/${slug}-new/recent-songs`, user)).total).toBe(4);
    refused(
      await call("POST", `/rooms/${slug}/recent-songs`, user, { roomUuid, song: { trackName: "x", artistName: "y" } }),
      401,
    );
    refused(
      await call("POST", `/rooms/${slug}/recent-songs`, service, {
        roomUuid: "nope",
        song: { trackName: "x", artistName: "y" },
      }),
      400,
      /roomUuid/,
    );
    refused(await call("GET", `/rooms/${slug}/recent-songs?limit=500`, undefined), 400, /limit/);
  });
});
