// SongService (the /api/room-service song and upload paths) on the real host with the real user service
// alongside (the uploadMusic capability), PostgreSQL, NATS and FFmpeg: uploads through packaging to VERIFIED,
// the played media (a segment decrypted with the served key), tag edits, lists, deletes and every refusal.
import { createDecipheriv } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServiceHarness, eventually, type ServiceHarness, outcomeOf } from "@tt/kit/testing";
import { OutboxMessage } from "@tt/kit";
import { fromBinary } from "@bufbuild/protobuf";
import { UploadedSongPublishedSchema, UploadedSongRemovedSchema } from "@tt/proto/tt/upload/v1/events_pb";
import { MediaService } from "@tt/proto/tt/upload/v1/media_service_pb";
import { SongService } from "@tt/proto/tt/upload/v1/song_service_pb";
import { userServiceDefinition } from "@tt/user-service";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uploadServiceDefinition } from "../index.ts";
import { callbackSignature, keyToken } from "../modules/songs/signatures.ts";
import { ADMIN_ENV, adminUser, makeAudio, signUp, uploader, type TestUser } from "../testing/fixtures.ts";

const KEY_SECRET = "k".repeat(40);
const CALLBACK_SECRET = "c".repeat(40);

let h: ServiceHarness;
let mediaDir: string;
let admin: TestUser;
let owner: TestUser;
let other: TestUser;

beforeAll(async () => {
  mediaDir = await mkdtemp(join(tmpdir(), "tt-upload-songs-"));
  h = await createServiceHarness(uploadServiceDefinition, {
    alongside: [userServiceDefinition],
    env: {
      ...ADMIN_ENV,
      MEDIA_DIR: mediaDir,
      HLS_KEY_SIGNING_SECRET: KEY_SECRET,
      TRANSCODER_CALLBACK_SECRET: CALLBACK_SECRET,
    },
  });
  admin = await adminUser(h);
  owner = await uploader(h, admin);
  other = await signUp(h);
}, 60_000);

afterAll(async () => {
  await h?.close();
  await rm(mediaDir, { recursive: true, force: true });
});

const songs = (who: TestUser) => h.client(SongService, { token: who.token });
const media = (who: TestUser) => h.client(MediaService, { token: who.token });

async function upload(who: TestUser, bytes: Uint8Array, fields: { public?: boolean; trackName?: string } = {}) {
  const res = await songs(who).uploadSong({
    file: { content: bytes, filename: "song.bin", contentType: "application/octet-stream" },
    ...fields,
  });
  return res.song!;
}

async function verified(id: bigint) {
  return eventually(
    `song ${id} VERIFIED`,
    async () => {
      const { song } = await songs(owner).getSong({ id });
      if (song!.status === "VERIFICATION_ERROR") throw new Error(song!.statusMessage);
      return song!.status === "VERIFIED" && song;
    },
    { timeoutMs: 60_000 },
  );
}

async function outboxEvents(subject: string) {
  return (await h.orm.em.fork().find(OutboxMessage, { subject })).map((m) => m.payload as Uint8Array);
}

/** The AES-128-CBC key of a variant playlist, fetched as a player would (its key URL, with the caller's token). */
function keyQuery(playlist: string) {
  const uri = /#EXT-X-KEY:METHOD=AES-128,URI="([^"]+)",IV=0x([0-9a-f]{32})/.exec(playlist);
  expect(uri, playlist).not.toBeNull();
  const url = new URL(uri![1]!, "http://x");
  expect(url.pathname).toBe("/api/room-service/songs/hls/key");
  return {
    query: {
      songId: BigInt(url.searchParams.get("songId")!),
      expires: BigInt(url.searchParams.get("expires")!),
      token: url.searchParams.get("token")!,
    },
    iv: Buffer.from(uri![2]!, "hex"),
  };
}

describe("uploading and packaging", () => {
  let songId: bigint;

  it("a tagged MP3 becomes UNVERIFIED, is packaged into three qualities and ends VERIFIED with progress 100 and its event", async () => {
    const song = await upload(owner, await makeAudio({ seconds: 5, title: "Five Seconds", artist: "Tester" }), {
      public: true,
    });
    expect(song).toMatchObject({
      status: "UNVERIFIED",
      trackName: "Five Seconds",
      artistName: "Tester",
      fileType: "mp3",
    });
    expect(song.duration).toBeGreaterThan(4.5);
    songId = song.songId;
    const done = await verified(songId);
    expect(done).toMatchObject({
      progress: 100,
      hlsPlaylistUrl: `/api/room-service/songs/${songId}/hls-playlist`,
      musicProviders: { uploadService: String(songId) },
      streamUrls: { uploadService: { hls: `/api/room-service/songs/${songId}/hls-playlist` } },
    });
    const events = (await outboxEvents("tt.upload.song.published")).map((b) =>
      fromBinary(UploadedSongPublishedSchema, b),
    );
    expect(events.find((e) => e.songId === songId)).toMatchObject({
      songUuid: song.uuid,
      ownerUuid: owner.uuid,
      trackName: "Five Seconds",
      public: true,
      demo: false,
      hlsPlaylistUrl: `/api/room-service/songs/${songId}/hls-playlist`,
    });
  }, 90_000);

  it("the master playlist names low, medium and high; a segment decrypts with the served key to ADTS audio in MPEG-TS", async () => {
    const master = new TextDecoder().decode((await songs(other).getHlsPlaylist({ id: songId })).body!.data);
    const variants = master.split("\n").filter((l) => l.startsWith("/"));
    expect(variants).toEqual(["low", "medium", "high"].map((q) => `/api/upload-service/songs/${songId}/hls/${q}`));
    expect(master).toMatch(/^#EXTM3U\n/);

    const playlist = new TextDecoder().decode(
      (await media(other).getVariantPlaylist({ id: songId, quality: "medium" })).body!.data,
    );
    expect(playlist).toMatch(/#EXT-X-ENDLIST/);
    const segments = playlist.split("\n").filter((l) => l.startsWith("/api/upload-service/media/"));
    expect(segments.length).toBeGreaterThanOrEqual(1);
    const { query, iv } = keyQuery(playlist);
    const key = (await songs(other).getHlsKey(query)).body!;
    expect(key.contentType).toBe("application/octet-stream");
    expect(key.data.length).toBe(16);

    const [, , , , uuid, version, quality, name] = segments[0]!.split("/");
    const segment = await media(other).getMediaSegment({
      songUuid: uuid!,
      version: version!,
      quality: quality!,
      name: name!,
    });
    const decipher = createDecipheriv("aes-128-cbc", key.data, iv);
    const clear = Buffer.concat([decipher.update(segment.body!.data), decipher.final()]);
    // MPEG-TS: a sync byte every 188 bytes; inside, AAC in ADTS frames (12 sync bits).
    expect(clear.length % 188).toBe(0);
    for (let at = 0; at < clear.length; at += 188) expect(clear[at]).toBe(0x47);
    expect(clear.some((b, i) => b === 0xff && ((clear[i + 1] ?? 0) & 0xf6) === 0xf0)).toBe(true);
    // Encrypted as stored: the raw bytes are not a transport stream.
    expect(Buffer.from(segment.body!.data).every((b, i) => i % 188 !== 0 || b === 0x47)).toBe(false);
  });

  it("the key URL refuses another listener, an expired URL and a forged token (401)", async () => {
    const playlist = new TextDecoder().decode(
      (await media(other).getVariantPlaylist({ id: songId, quality: "low" })).body!.data,
    );
    const { query } = keyQuery(playlist);
    expect(await outcomeOf(songs(owner).getHlsKey(query))).toBe(
      "Unauthenticated: the key URL was not issued to this caller",
    );
    const past = Math.floor(Date.now() / 1000) - 10;
    const expired = keyToken(Buffer.from(KEY_SECRET), Number(songId), other.uuid, past);
    expect(await outcomeOf(songs(other).getHlsKey({ songId, expires: BigInt(past), token: expired }))).toBe(
      "Unauthenticated: the key URL has expired",
    );
    expect(await outcomeOf(songs(other).getHlsKey({ ...query, expires: query.expires + 1n }))).toBe(
      "Unauthenticated: the key URL was not issued to this caller",
    );
    expect(await outcomeOf(h.client(SongService).getHlsKey(query))).toMatch(/^Unauthenticated/);
  });

  it("an untagged WAV waits in MISSING_METADATA; only its owner completes it, which queues it", async () => {
    const song = await upload(owner, await makeAudio({ seconds: 2, format: "wav" }));
    expect(song.status).toBe("MISSING_METADATA");
    expect(song.missingFields).toEqual(["trackName", "artistName"]);
    expect(await outcomeOf(songs(owner).getHlsPlaylist({ id: song.songId }))).toBe(
      "PermissionDenied: Song is not verified",
    );
    expect(await outcomeOf(songs(other).updateMetadata({ songId: song.songId, trackName: "Mine" }))).toBe(
      "PermissionDenied: Unauthorized to edit tags that not belongs to the user",
    );
    expect(await outcomeOf(songs(other).updateSong({ id: song.songId, trackName: "Mine" }))).toBe(
      "PermissionDenied: Unauthorized to edit tags that not belongs to the user",
    );
    const half = await songs(owner).updateMetadata({ songId: song.songId, trackName: "Half" });
    expect(half.song).toMatchObject({ status: "MISSING_METADATA", missingFields: ["artistName"] });
    expect(await outcomeOf(songs(owner).updateSong({ id: song.songId, artistName: "  " }))).toBe(
      "InvalidArgument: artistName must not be empty",
    );
    expect(await outcomeOf(songs(owner).updateSong({ id: song.songId, duration: -1 }))).toMatch(
      /^InvalidArgument: duration must be more than 0/,
    );
    const full = await songs(owner).updateSong({ id: song.songId, artistName: "Someone", genre: "Test" });
    expect(full.song).toMatchObject({ status: "UNVERIFIED", trackName: "Half", artistName: "Someone", genre: "Test" });
    await verified(song.songId);
  }, 90_000);

  it("a verified song's tag edit publishes the song again", async () => {
    await songs(owner).updateSong({ id: songId, albumName: "Renamed Album" });
    await eventually(
      "the edit's event",
      async () =>
        (await outboxEvents("tt.upload.song.published"))
          .map((b) => fromBinary(UploadedSongPublishedSchema, b))
          .some((e) => e.songId === songId && e.albumName === "Renamed Album"),
      { timeoutMs: 60_000 },
    );
  });

  it("refuses bytes that are no supported audio (400), users without uploadMusic (403) and guests (401)", async () => {
    const text = new TextEncoder().encode("just some text, not audio at all");
    expect(await outcomeOf(upload(owner, text))).toBe(
      "InvalidArgument: file is not a supported audio file (MP3, FLAC, OGG, WAV, M4A or AAC)",
    );
    expect(await outcomeOf(upload(other, await makeAudio({ seconds: 1 })))).toBe(
      "PermissionDenied: Uploading music requires the uploadMusic capability",
    );
    expect(await outcomeOf(upload(owner, new Uint8Array()))).toMatch(/^InvalidArgument: file/);
    const guest = { uuid: "", token: await h.tokens.guest() };
    expect(await outcomeOf(upload(guest, await makeAudio({ seconds: 1 })))).toMatch(/^Unauthenticated/);
  });
});

describe("reading, lists and search", () => {
  let pending: bigint;
  let privateVerified: bigint;
  beforeAll(async () => {
    pending = (await upload(owner, await makeAudio({ seconds: 1, format: "wav" }), { trackName: "Zebra Pending" }))
      .songId;
    privateVerified = (await upload(owner, await makeAudio({ seconds: 2, title: "Zebra Private", artist: "Owner" })))
      .songId;
    await verified(privateVerified);
  }, 60_000);

  it("GET /songs/{id}: the owner sees every state; others see public VERIFIED songs only (404 otherwise)", async () => {
    expect((await songs(owner).getSong({ id: pending })).song!.status).toBe("MISSING_METADATA");
    expect(await outcomeOf(songs(other).getSong({ id: pending }))).toBe("NotFound: Song not found");
    // Issue 23: a VERIFIED song that is not public is not a stranger's to read.
    expect((await songs(owner).getSong({ id: privateVerified })).song!.trackName).toBe("Zebra Private");
    expect(await outcomeOf(songs(other).getSong({ id: privateVerified }))).toBe("NotFound: Song not found");
    expect(await outcomeOf(songs(owner).getSong({ id: 2_147_483_648n }))).toBe("NotFound: Song not found");
    expect(await outcomeOf(songs(owner).getSong({ id: 999_999n }))).toBe("NotFound: Song not found");
  });

  it("GET /songs lists the caller's own, verified=true/false splitting them; /songs/public only public VERIFIED ones", async () => {
    const all = await songs(owner).listSongs({});
    expect(all.songs.every((s) => s.ownerUuid === owner.uuid)).toBe(true);
    const yes = await songs(owner).listSongs({ verified: true });
    const no = await songs(owner).listSongs({ verified: false });
    expect(yes.total + no.total).toBe(all.total);
    expect(yes.songs.every((s) => s.status === "VERIFIED")).toBe(true);
    expect(no.songs.some((s) => s.songId === pending)).toBe(true);
    expect((await songs(other).listSongs({})).total).toBe(0);
    const pub = await songs(other).listPublicSongs({ limit: 100 });
    expect(pub.songs.every((s) => s.public && s.status === "VERIFIED")).toBe(true);
    expect(pub.songs.some((s) => s.songId === privateVerified)).toBe(false);
    const page = await songs(owner).listSongs({ limit: 1, offset: 1 });
    expect(page.songs).toHaveLength(1);
    expect(page.total).toBe(all.total);
  });

  it("GET /search finds the caller's own songs and everyone's public VERIFIED ones by term", async () => {
    const mine = await songs(owner).searchSongs({ term: "zebra" });
    expect(mine.songs.map((s) => s.songId).sort()).toEqual([pending, privateVerified].sort());
    expect((await songs(other).searchSongs({ term: "zebra" })).total).toBe(0);
    expect((await songs(other).searchSongs({ term: "five seconds" })).total).toBe(1);
    expect((await songs(owner).searchSongs({ term: "%" })).total).toBe(0);
    expect(await outcomeOf(songs(owner).searchSongs({ term: "" }))).toMatch(/^InvalidArgument: term/);
  });
});

describe("deleting", () => {
  it("others are refused (403); the owner and an admin delete, and the catalogue is told", async () => {
    const a = (await upload(owner, await makeAudio({ seconds: 1, format: "wav" }))).songId;
    const b = (await upload(owner, await makeAudio({ seconds: 1, format: "wav" }))).songId;
    expect(await outcomeOf(songs(other).deleteSong({ id: a }))).toBe(
      "PermissionDenied: Unauthorized to delete a song that not belongs to the user",
    );
    await songs(owner).deleteSong({ id: a });
    await songs(admin).deleteSong({ id: b });
    expect(await outcomeOf(songs(owner).getSong({ id: a }))).toBe("NotFound: Song not found");
    expect(await outcomeOf(songs(owner).deleteSong({ id: b }))).toBe("NotFound: Song not found");
    const removed = (await outboxEvents("tt.upload.song.removed")).map((x) => fromBinary(UploadedSongRemovedSchema, x));
    expect(removed.map((e) => e.songId)).toEqual(expect.arrayContaining([a, b]));
  });
});

describe("POST /upload/transcoder_sns", () => {
  const report = (
    r: { songUuid: string; status: string; progress?: number; message?: string },
    secret = CALLBACK_SECRET,
  ) => {
    const timestamp = BigInt(Math.floor(Date.now() / 1000));
    const body = { progress: 0, message: "", ...r, timestamp };
    return { ...body, signature: callbackSignature(Buffer.from(secret), body) };
  };

  it("refuses a wrong signature or an old report (401), an unknown song (404), a report that does not apply (400)", async () => {
    const song = await upload(owner, await makeAudio({ seconds: 1, format: "wav" }));
    const client = h.client(SongService);
    expect(
      await outcomeOf(client.transcoderCallback(report({ songUuid: song.uuid, status: "VERIFIED" }, "x".repeat(40)))),
    ).toBe("Unauthenticated: invalid signature");
    const old = report({ songUuid: song.uuid, status: "VERIFIED" });
    const stale = { ...old, timestamp: old.timestamp - 1000n };
    expect(
      await outcomeOf(
        client.transcoderCallback({ ...stale, signature: callbackSignature(Buffer.from(CALLBACK_SECRET), stale) }),
      ),
    ).toBe("Unauthenticated: invalid signature");
    expect(
      await outcomeOf(
        client.transcoderCallback(report({ songUuid: "6f1b3c1e-1111-4aaa-8bbb-123456789abc", status: "VERIFIED" })),
      ),
    ).toBe("NotFound: Song not found");
    // MISSING_METADATA: not awaiting packaging.
    expect(await outcomeOf(client.transcoderCallback(report({ songUuid: song.uuid, status: "VERIFIED" })))).toMatch(
      /^FailedPrecondition: a MISSING_METADATA song cannot be reported VERIFIED/,
    );
  });

  it("an outside transcoder's VERIFICATION_ERROR ends a queued song; VERIFIED needs the media in the store", async () => {
    // The platform's own worker would package it at once: stop this song from being taken by making it fail first.
    const song = await upload(owner, await makeAudio({ seconds: 1, format: "wav" }));
    const queued = await songs(owner).updateSong({ id: song.songId, trackName: "Reported", artistName: "Outside" });
    const client = h.client(SongService);
    const answer = await outcomeOf(
      client.transcoderCallback(report({ songUuid: song.uuid, status: "VERIFICATION_ERROR", message: "bad file" })),
    );
    // Either the report came first (ERROR), or the worker had already packaged it (then the report does not apply).
    const after = (await songs(owner).getSong({ id: song.songId })).song!;
    if (answer === "ok") expect(after).toMatchObject({ status: "VERIFICATION_ERROR", statusMessage: "bad file" });
    else expect(after.status).toBe("VERIFIED");
    expect(queued.song!.status).toBe("UNVERIFIED");
  });
});
