// MediaService (/api/upload-service): a song by id, its hlsPlaylistUrl, search, a user's songs, the per-listener
// variant playlists and the immutable segments, with their refusals.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServiceHarness, eventually, type ServiceHarness, outcomeOf } from "@tt/kit/testing";
import { MediaService } from "@tt/proto/tt/upload/v1/media_service_pb";
import { SongService } from "@tt/proto/tt/upload/v1/song_service_pb";
import { AuthService } from "@tt/proto/tt/user/v1/auth_service_pb";
import { userServiceDefinition } from "@tt/user-service";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uploadServiceDefinition } from "../index.ts";
import { ADMIN_ENV, adminUser, makeAudio, signUp, uploader, type TestUser } from "../testing/fixtures.ts";
import { issueTicket } from "../modules/songs/playback-tickets.ts";
import { loadSecrets } from "../modules/songs/secrets.ts";
import { listenerPlaylist } from "./media.ts";

let h: ServiceHarness;
let mediaDir: string;
let owner: TestUser;
let other: TestUser;
let verified: { songId: bigint; uuid: string };
let pending: bigint;

const media = (who?: TestUser) => h.client(MediaService, who ? { token: who.token } : {});

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
  await eventually("VERIFIED", async () => (await songs.getSong({ id: verified.songId })).song!.status === "VERIFIED", {
    timeoutMs: 60_000,
  });
}, 90_000);

afterAll(async () => {
  await h?.close();
  await rm(mediaDir, { recursive: true, force: true });
});

describe("MediaService", () => {
  it("GET /songs/{id}: the song for anyone once VERIFIED; a pending one for its owner and services only", async () => {
    expect((await media(other).getSongById({ id: verified.songId })).song!.trackName).toBe("Quokka");
    expect(await outcomeOf(media(other).getSongById({ id: pending }))).toBe("NotFound: Song not found");
    expect((await media(owner).getSongById({ id: pending })).song!.status).toBe("MISSING_METADATA");
    const service = { uuid: "", token: await h.tokens.service("playlist") };
    expect((await media(service).getSongById({ id: pending })).song!.songId).toBe(pending);
    expect(await outcomeOf(media().getSongById({ id: verified.songId }))).toMatch(/^Unauthenticated/);
  });

  it("GET /songs/{id}/hls-playlist-url answers hlsPlaylistUrl; 403 before VERIFIED", async () => {
    expect(await media(other).getHlsPlaylistUrl({ id: verified.songId })).toMatchObject({
      hlsPlaylistUrl: `/api/room-service/songs/${verified.songId}/hls-playlist`,
    });
    expect(await outcomeOf(media(owner).getHlsPlaylistUrl({ id: pending }))).toBe(
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
    expect(await outcomeOf(media(other).listUserSongs({ userId: "nope" }))).toMatch(/^InvalidArgument: userId/);
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
    expect(await outcomeOf(media(owner).getVariantPlaylist({ id: pending, quality: "low" }))).toBe(
      "PermissionDenied: Song is not verified",
    );
    expect(await outcomeOf(media(other).getVariantPlaylist({ id: verified.songId, quality: "ultra" }))).toMatch(
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
      await outcomeOf(media().getMediaSegment({ songUuid: songUuid!, version: "0", quality: "low", name: name! })),
    ).toBe("NotFound: Media not found");
    expect(
      await outcomeOf(
        media().getMediaSegment({ songUuid: songUuid!, version: version!, quality: "low", name: "seg_99999.ts" }),
      ),
    ).toBe("NotFound: Media not found");
    expect(
      await outcomeOf(
        media().getMediaSegment({ songUuid: songUuid!, version: version!, quality: "low", name: "../x" }),
      ),
    ).toMatch(/^InvalidArgument: name/);
  });
});

describe("issue 12: native HLS (no Authorization header) through a playback ticket in the URL", () => {
  const songs = (who?: TestUser) => h.client(SongService, who ? { token: who.token } : {});
  const ticketOf = (url: string) => new URL(url, "http://x").searchParams.get("ticket")!;
  const sessionOf = (token: string) =>
    (JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as { sid: string }).sid;
  const text = (body: { data: Uint8Array } | undefined) => new TextDecoder().decode(body!.data);

  it("nativePlaylistUrl opens master, variant and key without a token, and the key is the song's", async () => {
    const before = Math.floor(Date.now() / 1000);
    const { nativePlaylistUrl } = await media(other).getHlsPlaylistUrl({ id: verified.songId });
    expect(nativePlaylistUrl).toMatch(
      new RegExp(`^/api/room-service/songs/${verified.songId}/hls-playlist\\?ticket=[A-Za-z0-9_.-]+$`),
    );
    const ticket = ticketOf(nativePlaylistUrl);
    const [listener, session, expires] = ticket.split(".");
    expect(listener).toBe(other.uuid);
    expect(session).toBe(sessionOf(other.token));
    // Short-lived: the song's 2 s plus the grace (300 s by default), capped by HLS_KEY_URL_TTL_SECONDS (120 here).
    expect(Number(expires)).toBeLessThanOrEqual(before + 122);

    let cacheControl: string | null = null;
    const master = text(
      (
        await songs().getHlsPlaylist(
          { id: verified.songId, ticket },
          { onHeader: (headers) => (cacheControl = headers.get("cache-control")) },
        )
      ).body,
    );
    expect(cacheControl).toBe("private, no-store");
    const variants = master.split("\n").filter((l) => l.startsWith("/"));
    expect(variants).toHaveLength(3);
    for (const url of variants) expect(ticketOf(url)).toBe(ticket);

    const variant = text((await media().getVariantPlaylist({ id: verified.songId, quality: "medium", ticket })).body);
    const keyUrl = /URI="([^"]+)"/.exec(variant)![1]!;
    expect(keyUrl).toBe(`/api/room-service/songs/hls/key?songId=${verified.songId}&ticket=${ticket}`);
    const key = await songs().getHlsKey({ songId: verified.songId, ticket });
    expect(key.body!.data).toHaveLength(16);
    // The same key the hls.js path serves with the listener's token.
    const signed = text((await media(other).getVariantPlaylist({ id: verified.songId, quality: "medium" })).body);
    const [, expiresAt, token] = /expires=(\d+)&token=([A-Za-z0-9_-]+)/.exec(signed)!;
    const viaToken = await songs(other).getHlsKey({
      songId: verified.songId,
      expires: BigInt(expiresAt!),
      token: token!,
    });
    expect(viaToken.body!.data).toEqual(key.body!.data);
    // With the listener's own token along, the ticket is accepted too.
    expect((await songs(other).getHlsKey({ songId: verified.songId, ticket })).body!.data).toEqual(key.body!.data);
  });

  it("refuses (401) no ticket without a token, another user's token, another song, an altered ticket", async () => {
    const ticket = ticketOf((await media(other).getHlsPlaylistUrl({ id: verified.songId })).nativePlaylistUrl);
    const id = verified.songId;
    expect(await outcomeOf(songs().getHlsPlaylist({ id }))).toMatch(/^Unauthenticated/);
    expect(await outcomeOf(media().getVariantPlaylist({ id, quality: "low" }))).toMatch(/^Unauthenticated/);
    expect(await outcomeOf(songs().getHlsKey({ songId: id, expires: 9_999_999_999n, token: "x" }))).toMatch(
      /^Unauthenticated/,
    );
    // Replayed by another user (the owner) with its own credentials: refused on every URL.
    const stolen = "Unauthenticated: the playback ticket was not issued to this caller";
    expect(await outcomeOf(songs(owner).getHlsKey({ songId: id, ticket }))).toBe(stolen);
    expect(await outcomeOf(songs(owner).getHlsPlaylist({ id, ticket }))).toBe(stolen);
    expect(await outcomeOf(media(owner).getVariantPlaylist({ id, quality: "low", ticket }))).toBe(stolen);
    // For another song, or altered anywhere.
    const invalid = "Unauthenticated: the playback ticket is not valid";
    expect(await outcomeOf(songs().getHlsKey({ songId: id + 1n, ticket }))).toBe(invalid);
    const [listener, session, expires, mac] = ticket.split(".") as [string, string, string, string];
    const altered = [
      [owner.uuid, session, expires, mac],
      [listener, session, String(Number(expires) + 3600), mac],
      [listener, session, expires, `${mac.slice(0, -1)}${mac.endsWith("A") ? "B" : "A"}`],
    ].map((parts) => parts.join("."));
    for (const bad of [...altered, "nonsense", `${ticket}.x`]) {
      expect(await outcomeOf(songs().getHlsKey({ songId: id, ticket: bad })), bad).toBe(invalid);
    }
    expect(await outcomeOf(songs().getHlsKey({ songId: id, ticket: "spaces are refused" }))).toMatch(
      /^InvalidArgument: ticket/,
    );
    expect(await outcomeOf(songs(other).getHlsKey({ songId: id }))).toBe(
      "InvalidArgument: expires and token, or ticket, missing in request",
    );
  });

  it("refuses (401) an expired ticket and one whose session was logged out", async () => {
    const { keyUrl } = await loadSecrets(h.orm, {});
    const expired = issueTicket(keyUrl, Number(verified.songId), {
      listener: other.uuid,
      sessionId: sessionOf(other.token),
      expires: Math.floor(Date.now() / 1000) - 1,
    });
    expect(await outcomeOf(songs().getHlsKey({ songId: verified.songId, ticket: expired }))).toBe(
      "Unauthenticated: the playback ticket has expired",
    );

    const leaving = await signUp(h);
    const ticket = ticketOf((await media(leaving).getHlsPlaylistUrl({ id: verified.songId })).nativePlaylistUrl);
    expect((await songs().getHlsKey({ songId: verified.songId, ticket })).body!.data).toHaveLength(16);
    await h.client(AuthService, { token: leaving.token }).logout({});
    expect(await outcomeOf(songs().getHlsKey({ songId: verified.songId, ticket }))).toBe(
      "Unauthenticated: the playback ticket's session has ended",
    );
    expect(await outcomeOf(songs().getHlsPlaylist({ id: verified.songId, ticket }))).toBe(
      "Unauthenticated: the playback ticket's session has ended",
    );
  });

  it("gives a service caller no native URL (it is no listener)", async () => {
    const service = { uuid: "", token: await h.tokens.service("playlist") };
    expect((await media(service).getHlsPlaylistUrl({ id: verified.songId })).nativePlaylistUrl).toBe("");
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
