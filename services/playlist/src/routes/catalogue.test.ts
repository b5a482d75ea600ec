// CatalogueService through the host, and the upload events consumed into the catalogue (published on the real
// bus as the upload service's outbox relay would).
import { randomUUID } from "node:crypto";
import { create, toBinary } from "@bufbuild/protobuf";
import { Code } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AGGREGATE_ID_HEADER, EVENT_ID_HEADER } from "@tt/kit";
import { createServiceHarness, eventually, type ServiceHarness, codeOf } from "@tt/kit/testing";
import { CatalogueService } from "@tt/proto/tt/playlist/v1/catalogue_service_pb";
import { CrateService } from "@tt/proto/tt/playlist/v1/crate_service_pb";
import { UploadedSongPublishedSchema, UploadedSongRemovedSchema } from "@tt/proto/tt/upload/v1/events_pb";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { playlistServiceDefinition } from "../index.ts";

let h: ServiceHarness;
const run = randomUUID().slice(0, 8);

beforeAll(async () => {
  // A durable of its own: other runs on the same NATS keep theirs.
  h = await createServiceHarness(playlistServiceDefinition, {
    network: false,
    env: { CATALOGUE_UPLOAD_DURABLE: `playlist-catalogue-test-${run}` },
  });
});
afterAll(() => h?.close());

async function publishUpload(init: MessageInitShape<typeof UploadedSongPublishedSchema>): Promise<void> {
  const event = create(UploadedSongPublishedSchema, init);
  await h.bus.publishDurable("tt.upload.song.published", toBinary(UploadedSongPublishedSchema, event), {
    headers: { [EVENT_ID_HEADER]: randomUUID(), [AGGREGATE_ID_HEADER]: event.songUuid },
  });
}

const service = async () => h.client(CatalogueService, { token: await h.tokens.service("room") });

describe("the upload events", () => {
  it("put a published upload in the catalogue (uploadService id, HLS stream, demo label), update and remove it", async () => {
    const songUuid = randomUUID();
    const songId = BigInt(Math.floor(Math.random() * 1e9));
    const base = {
      songUuid,
      songId,
      ownerUuid: randomUUID(),
      trackName: `Demo ${run}`,
      artistName: `Uploader ${run}`,
      albumName: "Demo album",
      genre: "Electronic",
      releaseYear: 2024,
      duration: 201.5,
      hlsPlaylistUrl: `/api/upload-service/media/${songUuid}/master.m3u8`,
      thumbnailUrl: `/api/upload-service/media/${songUuid}/cover.jpg`,
      public: true,
      demo: true,
    } satisfies MessageInitShape<typeof UploadedSongPublishedSchema>;
    await publishUpload(base);
    const anyone = h.client(CatalogueService, { token: await h.tokens.guest() });
    const find = async (include = false) =>
      (
        await anyone.listSongs({
          musicProvider: "uploadService",
          providerId: songId.toString(),
          includeUnavailable: include,
        })
      ).songs[0];
    const song = await eventually("the uploaded song", () => find());
    expect(song).toMatchObject({
      trackName: `Demo ${run}`,
      artistName: `Uploader ${run}`,
      albumName: "Demo album",
      duration: 201.5,
      demo: true,
      available: true,
      status: "VERIFIED",
      musicProviders: { uploadService: songId.toString() },
      thumbnails: { uploadService: base.thumbnailUrl },
    });
    expect(song.streamUrls.uploadService).toMatchObject({ hls: base.hlsPlaylistUrl });
    // The "Start here" shelves ask for the demo songs alone (issue 26).
    const shelf = await anyone.listSongs({ demo: true, q: `demo ${run}` });
    expect(shelf.songs.map((s) => s.songId)).toEqual([song.songId]);
    expect((await anyone.listSongs({ demo: false, q: `demo ${run}` })).songs).toEqual([]);

    // An edit arrives as the whole song again: same catalogue song, new tags.
    await publishUpload({ ...base, trackName: `Demo ${run} (edit)` });
    const edited = await eventually("the edit", async () => {
      const s = await find();
      return s?.trackName === `Demo ${run} (edit)` ? s : undefined;
    });
    expect(edited.songId).toBe(song.songId);

    const removed = create(UploadedSongRemovedSchema, { songUuid, songId, ownerUuid: base.ownerUuid });
    await h.bus.publishDurable("tt.upload.song.removed", toBinary(UploadedSongRemovedSchema, removed), {
      headers: { [EVENT_ID_HEADER]: randomUUID(), [AGGREGATE_ID_HEADER]: songUuid },
    });
    await eventually("the removal", async () => ((await find()) === undefined ? true : undefined));
    const kept = await find(true);
    expect(kept).toMatchObject({ songId: song.songId, available: false });
    expect(kept!.streamUrls.uploadService).toBeUndefined();
  });

  it("keeps a private upload out of everyone's list but its owner's", async () => {
    const owner = randomUUID();
    const songId = BigInt(Math.floor(Math.random() * 1e9));
    await publishUpload({
      songUuid: randomUUID(),
      songId,
      ownerUuid: owner,
      trackName: `Private ${run}`,
      artistName: "Me",
      public: false,
    });
    const mine = h.client(CatalogueService, { token: await h.tokens.user("user", owner) });
    await eventually("the private song", async () => (await mine.listSongs({ q: `private ${run}` })).songs[0]);
    const other = h.client(CatalogueService, { token: await h.tokens.user() });
    expect((await other.listSongs({ q: `private ${run}` })).songs).toEqual([]);
  });
});

describe("GET /api/v1/songs", () => {
  it("filters by words, isrc, explicit, artist and pages", async () => {
    const me = h.client(CrateService, { token: await h.tokens.user() });
    const tag = `flt${run}`;
    await me.addLikesSongs({
      songs: [
        { trackName: `${tag} One`, artistName: `${tag} Band`, isrc: "USRC17607839", explicit: true, duration: 100 },
        { trackName: `${tag} Two`, artistName: `${tag} Band`, duration: 100, albumName: "First" },
        { trackName: `${tag} Three`, artistName: "Solo", duration: 100, genre: "Jazz" },
      ],
    });
    const songs = h.client(CatalogueService, { token: await h.tokens.user() });
    expect((await songs.listSongs({ q: tag })).total).toBe(3);
    expect((await songs.listSongs({ q: `${tag} two` })).songs.map((s) => s.trackName)).toEqual([`${tag} Two`]);
    expect((await songs.listSongs({ isrc: "usrc17607839" })).songs.map((s) => s.trackName)).toEqual([`${tag} One`]);
    expect((await songs.listSongs({ q: tag, explicit: false })).total).toBe(2);
    expect((await songs.listSongs({ artistName: `${tag} BAND` })).total).toBe(2);
    expect((await songs.listSongs({ q: tag, genre: "jazz" })).songs.map((s) => s.trackName)).toEqual([`${tag} Three`]);
    expect((await songs.listSongs({ albumName: "first", q: tag })).total).toBe(1);
    const page = await songs.listSongs({ q: tag, limit: 2, offset: 2 });
    expect(page).toMatchObject({ total: 3, limit: 2, offset: 2 });
    expect(page.songs).toHaveLength(1);
    expect(await codeOf(songs.listSongs({ limit: 101 }))).toBe(Code.InvalidArgument);
    expect(await codeOf(songs.listSongs({ providerId: "x" }))).toBe(Code.InvalidArgument);
    expect(await codeOf(songs.listSongs({ musicProvider: "myspace" }))).toBe(Code.InvalidArgument);

    const one = (await songs.listSongs({ q: `${tag} one` })).songs[0]!;
    expect((await songs.getSong({ songId: one.songId })).song!.trackName).toBe(`${tag} One`);
    expect(await codeOf(songs.getSong({ songId: randomUUID() }))).toBe(Code.NotFound);
    expect(await codeOf(songs.getSong({ songId: "nope" }))).toBe(Code.InvalidArgument);
  });

  it("filters by a provider alone: the songs known there", async () => {
    const me = h.client(CrateService, { token: await h.tokens.user() });
    const tag = `prv${run}`;
    await me.addLikesSongs({
      songs: [
        {
          trackName: `${tag} Deezer`,
          artistName: `${tag} Band`,
          duration: 100,
          musicProviders: { deezer: `d-${run}` },
        },
        {
          trackName: `${tag} Both`,
          artistName: `${tag} Band`,
          duration: 140,
          musicProviders: { deezer: `d2-${run}`, spotify: `s-${run}` },
        },
        { trackName: `${tag} None`, artistName: `${tag} Band`, duration: 180 },
      ],
    });
    const songs = h.client(CatalogueService, { token: await h.tokens.user() });
    const names = async (musicProvider: string) =>
      (await songs.listSongs({ q: tag, musicProvider })).songs.map((s) => s.trackName).sort();
    expect(await names("deezer")).toEqual([`${tag} Both`, `${tag} Deezer`]);
    expect(await names("spotify")).toEqual([`${tag} Both`]);
    expect(await names("youtube")).toEqual([]);
  });
});

describe("the service variants", () => {
  it("read crates, albums, artists and songs by short id", async () => {
    const me = h.client(CrateService, { token: await h.tokens.user() });
    const tag = `svc${run}`;
    const crate = (await me.createCrate({ crateName: `${tag} crate` })).crate!;
    await me.addCrateSongs({
      crateUuid: crate.crateUuid,
      songs: [
        { trackName: "A1", artistName: `${tag} Artist`, albumName: `${tag} Album`, releaseYear: 2001, duration: 1 },
        { trackName: "A2", artistName: `${tag} Artist`, albumName: `${tag} Album`, duration: 2 },
        { trackName: "B1", artistName: `${tag} Other`, albumName: `${tag} Second`, duration: 3 },
      ],
    });
    const svc = await service();
    const crates = await svc.listAllCrates({ take: 100 });
    expect(crates.total).toBeGreaterThan(0);
    const all = [];
    for (let skip = 0; skip < crates.total; skip += 100)
      all.push(...(await svc.listAllCrates({ take: 100, skip })).crates);
    const listed = all.find((c) => c.crateUuid === crate.crateUuid)!;
    expect(all.every((c) => c.special === "")).toBe(true);
    const songs = await svc.listCrateSongsByShortId({ crateShortId: listed.crateShortId });
    expect(songs.songs.map((s) => s.trackName)).toEqual(["A1", "A2", "B1"]);

    const song = (await svc.getSongByShortId({ songShortId: songs.songs[0]!.songShortId })).song!;
    expect(song).toMatchObject({ trackName: "A1", albumName: `${tag} Album`, releaseYear: 2001 });
    const album = await svc.listAlbumSongs({ albumShortId: song.albumShortId });
    expect(album.album).toMatchObject({ albumName: `${tag} Album`, artistName: `${tag} Artist`, songsNumber: 2 });
    expect(album.songs.map((s) => s.trackName)).toEqual(["A1", "A2"]);
    const artist = await svc.listArtistAlbums({ artistShortId: song.artistShortId });
    expect(artist.albums.map((a) => a.albumName)).toEqual([`${tag} Album`]);
    const other = (await svc.getSongByShortId({ songShortId: songs.songs[2]!.songShortId })).song!;
    const grouped = await svc.listAlbumsByArtists({
      artistShortIds: [song.artistShortId, other.artistShortId, "unknown1"],
    });
    expect(grouped.artists.map((a) => [a.artist!.artistName, a.albums.map((x) => x.albumName)])).toEqual([
      [`${tag} Artist`, [`${tag} Album`]],
      [`${tag} Other`, [`${tag} Second`]],
    ]);
    expect((await svc.listAllAlbums({ take: 100 })).total).toBeGreaterThanOrEqual(2);
    expect((await svc.listAllArtists({ take: 100 })).total).toBeGreaterThanOrEqual(2);
    expect((await svc.listAllSongs({ take: 2 })).songs).toHaveLength(2);

    expect(await codeOf(svc.getSongByShortId({ songShortId: "nope1234" }))).toBe(Code.NotFound);
    expect(await codeOf(svc.listAlbumSongs({ albumShortId: "nope1234" }))).toBe(Code.NotFound);
    expect(await codeOf(svc.listArtistAlbums({ artistShortId: "nope1234" }))).toBe(Code.NotFound);
    expect(await codeOf(svc.listCrateSongsByShortId({ crateShortId: "nope1234" }))).toBe(Code.NotFound);
    expect(await codeOf(svc.getSongByShortId({ songShortId: "bad-id!" }))).toBe(Code.InvalidArgument);
    expect(await codeOf(svc.listAllCrates({ take: 101 }))).toBe(Code.InvalidArgument);
  });

  it("are for services and admins: a user's token is refused with 401", async () => {
    const user = h.client(CatalogueService, { token: await h.tokens.user() });
    expect(await codeOf(user.listAllCrates({}))).toBe(Code.Unauthenticated);
    const admin = h.client(CatalogueService, { token: await h.tokens.user("admin") });
    expect((await admin.listAllArtists({})).artists).toBeDefined();
  });
});
