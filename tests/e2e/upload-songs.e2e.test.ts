// The upload service through the gateway, as a client of the specification calls it: every /api/room-service
// song and upload path and every /api/upload-service path, with their refusals; an upload packaged for real
// (FFmpeg) and played as a player would: master → variant → key (with the listener's token) → a segment.
import { createDecipheriv, randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { makeAudio } from "@tt/upload-service/testing";
import { sharedPlatform, u, type TestPlatform } from "./support/platform.ts";
import { eventually } from "@tt/kit/testing";

let platform: TestPlatform;
let owner: { uuid: string; token: string };
let other: { uuid: string; token: string };
let admin: string;
let songId: string;

// The run's shared platform: the song's title and artist carry this file's own tag, so searches find only it.
const TAG = randomUUID().slice(0, 8);
const TITLE = `E2E Tune ${TAG}`;
const ARTIST = `Gateway ${TAG}`;

const r = (path: string) => `/api/room-service${path}`;
const up = (path: string) => `/api/upload-service${path}`;
const call = (...args: Parameters<TestPlatform["call"]>) => platform.call(...args);

/** Raw bytes (playlists, keys, segments) with the answer's headers. */
async function raw(path: string, token?: string) {
  const res = await fetch(platform.url + path, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

async function songForm(bytes: Uint8Array, fields: Record<string, string> = {}): Promise<FormData> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append("file", new Blob([bytes as Uint8Array<ArrayBuffer>], { type: "audio/mpeg" }), "song.mp3");
  return form;
}

beforeAll(async () => {
  platform = await sharedPlatform();
  admin = await platform.adminToken();
  const a = await platform.signUp();
  owner = { uuid: a.user.uuid, token: a.token };
  const b = await platform.signUp();
  other = { uuid: b.user.uuid, token: b.token };
});

describe("uploading", () => {
  it("POST /upload/song: 401 without a token, 403 without uploadMusic, 400 for bytes that are not audio", async () => {
    const audio = await makeAudio({ seconds: 1 });
    expect((await call("POST", r("/upload/song"), { form: await songForm(audio) })).status).toBe(401);
    const refused = await call("POST", r("/upload/song"), { token: owner.token, form: await songForm(audio) });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      statusCode: 403,
      message: "Uploading music requires the uploadMusic capability",
    });

    const grant = await call("PUT", u(`/users/${owner.uuid}/capabilities/uploadMusic`), { token: admin, body: {} });
    expect(grant.status).toBe(200);
    const text = await call("POST", r("/upload/song"), {
      token: owner.token,
      form: await songForm(new TextEncoder().encode("not audio, only words")),
    });
    expect(text.status).toBe(400);
    expect(text.body).toMatchObject({
      message: "file is not a supported audio file (MP3, FLAC, OGG, WAV, M4A or AAC)",
    });
  });

  it("a tagged upload is packaged until VERIFIED, its progress visible on GET /songs/{id}", async () => {
    const audio = await makeAudio({ seconds: 5, title: TITLE, artist: ARTIST });
    const res = await call("POST", r("/upload/song"), {
      token: owner.token,
      form: await songForm(audio, { public: "true" }),
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: "UNVERIFIED",
      trackName: TITLE,
      artistName: ARTIST,
      public: true,
    });
    songId = res.body.songId as string;
    const done = await eventually(
      "VERIFIED",
      async () => {
        const got = await call("GET", r(`/songs/${songId}`), { token: owner.token });
        expect(got.status).toBe(200);
        return got.body.status === "VERIFIED" && got.body;
      },
      { timeoutMs: 90_000 },
    );
    expect(done).toMatchObject({ progress: 100, hlsPlaylistUrl: `/api/room-service/songs/${songId}/hls-playlist` });
  }, 120_000);
});

describe("playing", () => {
  it("master → variant → key (the listener's own) → a segment that decrypts to MPEG-TS; segments are immutable", async () => {
    const master = await raw(r(`/songs/${songId}/hls-playlist`), other.token);
    expect(master.status).toBe(200);
    expect(master.headers.get("content-type")).toBe("application/vnd.apple.mpegurl");
    const variants = new TextDecoder()
      .decode(master.bytes)
      .split("\n")
      .filter((l) => l.startsWith("/"));
    expect(variants).toHaveLength(3);
    const variant = await raw(variants[1]!, other.token);
    expect(variant.status).toBe(200);
    const text = new TextDecoder().decode(variant.bytes);
    const key = /URI="([^"]+)",IV=0x([0-9a-f]{32})/.exec(text)!;
    const segmentPath = text.split("\n").find((l) => l.startsWith("/api/upload-service/media/"))!;

    const served = await raw(key[1]!, other.token);
    expect(served.status).toBe(200);
    expect(served.bytes).toHaveLength(16);
    const stolen = await raw(key[1]!, owner.token);
    expect(stolen.status).toBe(401);
    expect((await raw(key[1]!)).status).toBe(401);

    const segment = await raw(segmentPath);
    expect(segment.status).toBe(200);
    expect(segment.headers.get("content-type")).toBe("video/mp2t");
    expect(segment.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const decipher = createDecipheriv("aes-128-cbc", served.bytes, Buffer.from(key[2]!, "hex"));
    const clear = Buffer.concat([decipher.update(segment.bytes), decipher.final()]);
    expect(clear[0]).toBe(0x47);
    expect(clear[188]).toBe(0x47);
  });

  it("issue 12: a native player (no headers) plays nativePlaylistUrl; its ticket refuses another user and an alteration", async () => {
    const url = await call("GET", up(`/songs/${songId}/hls-playlist-url`), { token: other.token });
    const native = url.body.nativePlaylistUrl as string;
    expect(native).toMatch(new RegExp(`^/api/room-service/songs/${songId}/hls-playlist\\?ticket=[A-Za-z0-9_.-]+$`));
    // Every fetch below carries no Authorization header, as Safari's and iOS's own HLS player send none.
    const master = await raw(native);
    expect(master.status).toBe(200);
    const variantUrl = new TextDecoder()
      .decode(master.bytes)
      .split("\n")
      .find((l) => l.startsWith("/api/upload-service/songs/"))!;
    const variant = await raw(variantUrl);
    expect(variant.status).toBe(200);
    const text = new TextDecoder().decode(variant.bytes);
    const key = /URI="([^"]+)",IV=0x([0-9a-f]{32})/.exec(text)!;
    expect(key[1]).toContain("ticket=");
    const served = await raw(key[1]!);
    expect(served.status).toBe(200);
    const segment = await raw(text.split("\n").find((l) => l.startsWith("/api/upload-service/media/"))!);
    const decipher = createDecipheriv("aes-128-cbc", served.bytes, Buffer.from(key[2]!, "hex"));
    const clear = Buffer.concat([decipher.update(segment.bytes), decipher.final()]);
    expect(clear[0]).toBe(0x47);

    // Another user replaying the URL with its own credentials, or anyone changing it: 401.
    expect((await raw(key[1]!, owner.token)).status).toBe(401);
    expect((await raw(native, owner.token)).status).toBe(401);
    expect((await raw(key[1]!.replace(/ticket=[^.]+/, `ticket=${owner.uuid}`))).status).toBe(401);
    expect((await raw(key[1]!.replace(`songId=${songId}`, `songId=${Number(songId) + 1}`))).status).toBe(401);
    // Without a ticket, without a token: 401.
    expect((await raw(r(`/songs/${songId}/hls-playlist`))).status).toBe(401);
  });

  it("404 for a segment of an unknown version, 400 for a malformed segment name", async () => {
    const uuid = randomUUID();
    expect((await raw(up(`/media/${uuid}/abcdef/medium/seg_00000.ts`))).status).toBe(404);
    expect((await raw(up(`/media/${uuid}/abcdef/medium/..%2Fsecret`))).status).toBe(400);
    expect((await raw(up(`/media/${uuid}/abcdef/ultra/seg_00000.ts`))).status).toBe(400);
  });

  it('GET /songs/{id}/hls-playlist: 403 "Song is not verified" for a song still missing tags, 404 for none', async () => {
    const res = await call("POST", r("/upload/song"), {
      token: owner.token,
      form: await songForm(await makeAudio({ seconds: 1, format: "wav" })),
    });
    expect(res.body.status).toBe("MISSING_METADATA");
    const pending = await call("GET", r(`/songs/${res.body.songId as string}/hls-playlist`), { token: owner.token });
    expect(pending.status).toBe(403);
    expect(pending.body).toMatchObject({ statusCode: 403, message: "Song is not verified" });
    const url = await call("GET", up(`/songs/${res.body.songId as string}/hls-playlist-url`), { token: owner.token });
    expect(url.status).toBe(403);
    expect((await call("GET", r("/songs/999999/hls-playlist"), { token: owner.token })).status).toBe(404);
    expect((await call("GET", r("/songs/hls/key?songId=1&expires=1&token=x"), { token: owner.token })).status).toBe(
      401,
    );
  });
});

describe("songs", () => {
  it("GET /songs (verified), /songs/public and /search answer the crate-song fields", async () => {
    const mine = await call("GET", r("/songs?verified=true"), { token: owner.token });
    expect(mine.status).toBe(200);
    expect(mine.body.songs).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ songId, musicProviders: { uploadService: songId }, status: "VERIFIED" }),
      ]),
    );
    // Newest first; other files of the run may have published songs since.
    const pub = await call("GET", r("/songs/public?limit=50"), { token: other.token });
    expect((pub.body.songs as Array<{ songId: string }>).some((s) => s.songId === songId)).toBe(true);
    const found = await call("GET", r(`/search?term=${encodeURIComponent(`e2e tune ${TAG}`)}`), { token: other.token });
    expect(found.body).toMatchObject({ total: 1 });
    expect((await call("GET", r("/search"), { token: other.token })).status).toBe(400);
    expect((await call("GET", r("/songs?limit=1000"), { token: owner.token })).status).toBe(400);
    expect((await call("GET", r("/songs"))).status).toBe(401);
  });

  it("/api/upload-service: song by id, hlsPlaylistUrl, search, a user's songs", async () => {
    const byId = await call("GET", up(`/songs/${songId}`), { token: other.token });
    expect(byId.body).toMatchObject({ songId, trackName: TITLE });
    const url = await call("GET", up(`/songs/${songId}/hls-playlist-url`), { token: other.token });
    expect(url.body).toEqual({
      hlsPlaylistUrl: `/api/room-service/songs/${songId}/hls-playlist`,
      nativePlaylistUrl: expect.stringMatching(new RegExp(`^/api/room-service/songs/${songId}/hls-playlist\\?ticket=`)),
    });
    const found = await call("GET", up(`/search?term=${encodeURIComponent(`gateway ${TAG}`)}`), { token: other.token });
    expect(found.body).toMatchObject({ total: 1 });
    const theirs = await call("GET", up(`/users/${owner.uuid}/songs`), { token: other.token });
    expect((theirs.body.songs as Array<{ status: string }>).every((s) => s.status === "VERIFIED")).toBe(true);
    const own = await call("GET", up(`/users/${owner.uuid}/songs`), { token: owner.token });
    expect(own.body.total as number).toBeGreaterThan(theirs.body.total as number);
    expect((await call("GET", up("/users/not-a-uuid/songs"), { token: owner.token })).status).toBe(400);
    expect((await call("GET", up("/songs/abc"), { token: owner.token })).status).toBe(400);
    expect((await call("GET", up("/songs/99999999999"), { token: owner.token })).status).toBe(404);
  });

  it("POST /metadata and PATCH /songs/{id}: the owner edits, others get 403 with the documented message", async () => {
    const refused = await call("POST", r("/metadata"), { token: other.token, body: { songId, genre: "Noise" } });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ message: "Unauthorized to edit tags that not belongs to the user" });
    const patchRefused = await call("PATCH", r(`/songs/${songId}`), { token: other.token, body: { genre: "Noise" } });
    expect(patchRefused.status).toBe(403);
    const ok = await call("POST", r("/metadata"), { token: owner.token, body: { songId, genre: "Test Tones" } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ genre: "Test Tones", status: "VERIFIED" });
    const patched = await call("PATCH", r(`/songs/${songId}`), { token: owner.token, body: { explicit: true } });
    expect(patched.body).toMatchObject({ explicit: true, genre: "Test Tones" });
    expect((await call("POST", r("/metadata"), { token: owner.token, body: {} })).status).toBe(400);
  });

  it("POST /upload/transcoder_sns refuses a report without a valid signature (401)", async () => {
    const res = await call("POST", r("/upload/transcoder_sns"), {
      body: {
        songUuid: randomUUID(),
        status: "VERIFIED",
        timestamp: String(Math.floor(Date.now() / 1000)),
        signature: "0".repeat(64),
      },
    });
    expect(res.status).toBe(401);
    expect((await call("POST", r("/upload/transcoder_sns"), { body: {} })).status).toBe(400);
  });

  it("DELETE /songs/{id}: 403 for others, then the owner deletes it and it is gone", async () => {
    const refused = await call("DELETE", r(`/songs/${songId}`), { token: other.token });
    expect(refused.status).toBe(403);
    expect((await call("DELETE", r(`/songs/${songId}`), { token: owner.token })).status).toBe(200);
    expect((await call("GET", r(`/songs/${songId}`), { token: owner.token })).status).toBe(404);
  });
});
