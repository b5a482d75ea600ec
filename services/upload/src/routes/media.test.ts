// MediaService (/api/upload-service): a song by id, its hlsPlaylistUrl, search, a user's songs, the per-listener
// variant playlists and the immutable segments, with their refusals.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Code, ConnectError } from "@connectrpc/connect";
import { createServiceHarness, type ServiceHarness } from "@tt/kit/testing";
import { MediaService } from "@tt/proto/tt/upload/v1/media_service_pb";
import { SongService } from "@tt/proto/tt/upload/v1/song_service_pb";
import { userServiceDefinition } from "@tt/user-service";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uploadServiceDefinition } from "../index.ts";
import { ADMIN_ENV, adminUser, makeAudio, signUp, uploader, waitFor, type TestUser } from "../testing/fixtures.ts";
import { listenerPlaylist } from "./media.ts";

let h: ServiceHarness;
let mediaDir: string;
let owner: TestUser;
let other: TestUser;
let verified: { songId: bigint; uuid: string };
let pending: bigint;

const media = (who?: TestUser) => h.client(MediaService, who ? { token: who.token } : {});

async function refusal(call: Promise<unknown>): Promise<string> {
  try {
    await call;
    return "ok";
  } catch (err) {
    const e = ConnectError.from(err);
    return `${Code[e.code]}: ${e.rawMessage}`;
  }
}

beforeAll(async () => {
  mediaDir = await mkdtemp(join(tmpdir(), "tt-upload-media-"));
  h = await createServiceHarness(uploadServiceDefinition, {
    alongside: [userServiceDefinition],
    env: { ...ADMIN_ENV, MEDIA_DIR: mediaDir, HLS_KEY_URL_TTL_SECONDS: "120" },
  });
  owner = await uploader(h, await adminUser(h));
  other = await signUp(h);
  const songs = h.client(SongService, { token: owner.token });
  const file = (content: Uint8Array) => ({ content, filename: "x", contentType: "" });
  const a = await songs.uploadSong({
    file: file(await makeAudio({ seconds: 2, title: "Quokka", artist: "Media" })),
    public: true,
  });
  verified = { songId: a.song!.songId, uuid: a.song!.uuid };
  pending = (await songs.uploadSong({ file: file(await makeAudio({ seconds: 1, format: "wav" })) })).song!.songId;
  await waitFor("VERIFIED", async () => (await songs.getSong({ id: verified.songId })).song!.status === "VERIFIED");
}, 90_000);

afterAll(async () => {
  await h?.close();
  await rm(mediaDir, { recursive: true, force: true });
});

describe("MediaService", () => {
  it("GET /songs/{id}: the song for anyone once VERIFIED; a pending one for its owner and services only", async () => {
    expect((await media(other).getSongById({ id: verified.songId })).song!.trackName).toBe("Quokka");
    expect(await refusal(media(other).getSongById({ id: pending }))).toBe("NotFound: Song not found");
    expect((await media(owner).getSongById({ id: pending })).song!.status).toBe("MISSING_METADATA");
    const service = { uuid: "", token: await h.tokens.service("playlist") };
    expect((await media(service).getSongById({ id: pending })).song!.songId).toBe(pending);
    expect(await refusal(media().getSongById({ id: verified.songId }))).toMatch(/^Unauthenticated/);
  });

  it("GET /songs/{id}/hls-playlist-url answers hlsPlaylistUrl; 403 before VERIFIED", async () => {
    expect(await media(other).getHlsPlaylistUrl({ id: verified.songId })).toMatchObject({
      hlsPlaylistUrl: `/api/room-service/songs/${verified.songId}/hls-playlist`,
    });
    expect(await refusal(media(owner).getHlsPlaylistUrl({ id: pending }))).toBe(
      "PermissionDenied: Song is not verified",
    );
  });

  it("GET /search and GET /users/{userId}/songs", async () => {
    expect((await media(other).searchUploadedSongs({ term: "quokka" })).total).toBe(1);
    expect((await media(other).searchUploadedSongs({ term: "MEDIA" })).songs[0]!.artistName).toBe("Media");
    const theirs = await media(other).listUserSongs({ userId: owner.uuid });
    expect(theirs.songs.map((s) => s.songId)).toEqual([verified.songId]);
    expect((await media(owner).listUserSongs({ userId: owner.uuid })).total).toBe(2);
    expect((await media(other).listUserSongs({ userId: other.uuid })).total).toBe(0);
    expect(await refusal(media(other).listUserSongs({ userId: "nope" }))).toMatch(/^InvalidArgument: userId/);
  });

  it("a variant playlist names immutable segment URLs and a key URL signed for the caller until the TTL", async () => {
    const before = Math.floor(Date.now() / 1000);
    const text = new TextDecoder().decode(
      (await media(other).getVariantPlaylist({ id: verified.songId, quality: "high" })).body!.data,
    );
    const expires = Number(/expires=(\d+)/.exec(text)![1]);
    expect(expires).toBeGreaterThanOrEqual(before + 120);
    expect(expires).toBeLessThanOrEqual(before + 122);
    expect(text).toMatch(new RegExp(`/api/upload-service/media/${verified.uuid}/[0-9a-f]{16}/high/seg_00000\\.ts`));
    expect(await refusal(media(owner).getVariantPlaylist({ id: pending, quality: "low" }))).toBe(
      "PermissionDenied: Song is not verified",
    );
    expect(await refusal(media(other).getVariantPlaylist({ id: verified.songId, quality: "ultra" }))).toMatch(
      /^InvalidArgument: quality/,
    );
  });

  it("a segment is anonymous and cacheable for a year; another version or a name outside the pattern is refused", async () => {
    const text = new TextDecoder().decode(
      (await media(other).getVariantPlaylist({ id: verified.songId, quality: "low" })).body!.data,
    );
    const [, , , , songUuid, version, quality, name] = text
      .split("\n")
      .find((l) => l.includes("/media/"))!
      .split("/");
    let cacheControl: string | null = null;
    const segment = await media().getMediaSegment(
      { songUuid: songUuid!, version: version!, quality: quality!, name: name! },
      { onHeader: (headers) => (cacheControl = headers.get("cache-control")) },
    );
    expect(segment.body!.contentType).toBe("video/mp2t");
    expect(segment.body!.data.length).toBeGreaterThan(0);
    expect(cacheControl).toBe("public, max-age=31536000, immutable");
    expect(
      await refusal(media().getMediaSegment({ songUuid: songUuid!, version: "0", quality: "low", name: name! })),
    ).toBe("NotFound: Media not found");
    expect(
      await refusal(
        media().getMediaSegment({ songUuid: songUuid!, version: version!, quality: "low", name: "seg_99999.ts" }),
      ),
    ).toBe("NotFound: Media not found");
    expect(
      await refusal(media().getMediaSegment({ songUuid: songUuid!, version: version!, quality: "low", name: "../x" })),
    ).toMatch(/^InvalidArgument: name/);
  });
});

describe("listenerPlaylist", () => {
  it("rewrites segment names and the key placeholder, and leaves every other line alone", () => {
    const stored =
      '#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,URI="tt-hls-key",IV=0x00\n#EXTINF:6.0,\nseg_00000.ts\n#EXT-X-ENDLIST\n';
    expect(listenerPlaylist(stored, { id: 7, uuid: "u", mediaVersion: "v" }, "low", "/k?x=1")).toBe(
      '#EXTM3U\n#EXT-X-KEY:METHOD=AES-128,URI="/k?x=1",IV=0x00\n#EXTINF:6.0,\n/api/upload-service/media/u/v/low/seg_00000.ts\n#EXT-X-ENDLIST\n',
    );
  });
});
