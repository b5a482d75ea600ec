// Issue 23 through the gateway: who may play an upload that is not public (finding 2: its owner, admins, the
// listeners of a room while its owner plays it there; never a stranger or a guest, whose counting the numeric ids
// must not let reach a file), and VERIFIED meaning playable everywhere (finding 10: the catalogue answers for a
// song the moment its upload reports VERIFIED).
import { createDecipheriv, randomUUID } from "node:crypto";
import { fromJson, toJson, type JsonValue } from "@bufbuild/protobuf";
import { createClient } from "@connectrpc/connect";
import { StageSchema, type Stage } from "@tt/proto/tt/social/v1/stage_pb";
import { StageService } from "@tt/proto/tt/social/v1/stage_service_pb";
import { applyPatch } from "rfc6902";
import { beforeAll, describe, expect, it } from "vitest";
import { makeAudio } from "@tt/upload-service/testing";
import { bearerTransport, sharedPlatform, u, type TestPlatform } from "./support/platform.ts";

let platform: TestPlatform;
let owner: { uuid: string; token: string };
let stranger: { uuid: string; token: string };
let admin: string;
let guest: string;

const r = (path: string) => `/api/room-service${path}`;
const call = (...args: Parameters<TestPlatform["call"]>) => platform.call(...args);

async function upload(fields: Record<string, string>, seconds = 3): Promise<string> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const audio = await makeAudio({ seconds, title: "Issue 23 tune", artist: "Issue 23" });
  form.append("file", new Blob([audio as Uint8Array<ArrayBuffer>], { type: "audio/mpeg" }), "song.mp3");
  const res = await call("POST", r("/upload/song"), { token: owner.token, form });
  expect(res.status).toBe(200);
  return res.body.songId as string;
}

/** Polls the owner's view of the song as a quick client would (no pause), until it is VERIFIED. */
async function untilVerified(id: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const got = await call("GET", r(`/songs/${id}`), { token: owner.token });
    expect(got.status).toBe(200);
    if (got.body.status === "VERIFIED") return;
    expect(got.body.status).not.toBe("VERIFICATION_ERROR");
    if (Date.now() > deadline) throw new Error("timed out waiting for VERIFIED");
  }
}

/** Raw bytes (playlists, keys, segments). */
async function raw(path: string, token?: string) {
  const res = await fetch(platform.url + path, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/**
 * Plays the song as hls.js does with `token` from the master playlist `master`: the medium variant, its key and its
 * first segment, which must decrypt to MPEG-TS. Answers the URLs it used.
 */
async function play(master: string, token: string) {
  const m = await raw(master, token);
  expect(m.status, text(m.bytes)).toBe(200);
  const variantUrl = text(m.bytes)
    .split("\n")
    .filter((l) => l.startsWith("/"))[1]!;
  const v = await raw(variantUrl, token);
  expect(v.status, text(v.bytes)).toBe(200);
  const key = /URI="([^"]+)",IV=0x([0-9a-f]{32})/.exec(text(v.bytes))!;
  const segmentUrl = text(v.bytes)
    .split("\n")
    .find((l) => l.startsWith("/api/upload-service/media/"))!;
  const k = await raw(key[1]!, token);
  expect(k.status).toBe(200);
  const segment = await raw(segmentUrl);
  expect(segment.status).toBe(200);
  const decipher = createDecipheriv("aes-128-cbc", k.bytes, Buffer.from(key[2]!, "hex"));
  expect(Buffer.concat([decipher.update(segment.bytes), decipher.final()])[0]).toBe(0x47);
  return { variantUrl, keyUrl: key[1]!, segmentUrl, segmentHeaders: segment.headers };
}

beforeAll(async () => {
  platform = await sharedPlatform();
  admin = await platform.adminToken();
  const a = await platform.signUp();
  owner = { uuid: a.user.uuid, token: a.token };
  const b = await platform.signUp();
  stranger = { uuid: b.user.uuid, token: b.token };
  const g = await call("GET", u("/auth/guest"));
  guest = (g.body.accessToken as { token: string }).token;
  const grant = await call("PUT", u(`/users/${owner.uuid}/capabilities/uploadMusic`), { token: admin, body: {} });
  expect(grant.status).toBe(200);
});

describe("issue 23, finding 10: a VERIFIED upload is a song at once", () => {
  it("upload, poll until VERIFIED, then at once GET /song-data/{id}/uploadService → 200 with the stream", async () => {
    const id = await upload({ public: "true" });
    await untilVerified(id);
    const data = await call("GET", `/api/playlist-service/song-data/${id}/uploadService`, { token: owner.token });
    expect(data.status).toBe(200);
    expect(data.body.song).toMatchObject({
      musicProviders: { uploadService: id },
      streamUrls: { uploadService: { hls: `/api/room-service/songs/${id}/hls-playlist` } },
    });
  }, 120_000);
});

describe("issue 23, finding 2: an upload that is not public plays for its owner, admins and its room only", () => {
  let id: string;

  beforeAll(async () => {
    id = await upload({ public: "false" });
    await untilVerified(id);
  }, 120_000);

  it("a stranger, a guest and no token get nothing of it: metadata, playlists, key and segments", async () => {
    const mine = await play(r(`/songs/${id}/hls-playlist`), owner.token);
    // Its segment URLs carry an expiring signature and are no cache's.
    expect(mine.segmentUrl).toMatch(/\?expires=\d+&sig=[A-Za-z0-9_-]+$/);
    expect(mine.segmentHeaders.get("cache-control")).toBe("private, no-store");
    const unsigned = mine.segmentUrl.split("?")[0]!;
    const forged = mine.segmentUrl.replace(/sig=[A-Za-z0-9_-]+$/, "sig=AAAA");
    const expired = mine.segmentUrl.replace(/expires=\d+/, "expires=1");
    const quality = mine.variantUrl.split("?")[0]!.split("/").pop()!;
    // The owner's variant URL carries the owner's playback ticket.
    expect(mine.variantUrl).toMatch(/\?ticket=/);

    for (const token of [stranger.token, guest]) {
      for (const path of [
        r(`/songs/${id}`),
        `/api/upload-service/songs/${id}`,
        `/api/upload-service/songs/${id}/hls-playlist-url`,
        r(`/songs/${id}/hls-playlist`),
        `/api/upload-service/songs/${id}/hls/${quality}`,
      ]) {
        const res = await call("GET", path, { token });
        expect([path, res.status, res.body.message]).toEqual([path, 404, "Song not found"]);
        expect(JSON.stringify(res.body)).not.toContain("Issue 23 tune");
      }
      // A room named by someone who is no listener of it (or where the song does not play) changes nothing.
      const roomed = await call("GET", r(`/songs/${id}/hls-playlist?room=${randomUUID()}`), { token });
      expect(roomed.status).toBe(404);
      // The owner's variant and key URLs are signed for the owner.
      expect((await raw(mine.variantUrl, token)).status).toBe(401);
      expect((await raw(mine.keyUrl, token)).status).toBe(401);
    }
    expect((await raw(r(`/songs/${id}/hls-playlist`))).status).toBe(401);
    for (const path of [unsigned, forged, expired]) {
      const res = await call("GET", path);
      expect([path, res.status, res.body.message]).toEqual([path, 404, "Media not found"]);
    }
    // Nor the catalogue's copy (song-data answers anonymous callers too).
    const data = `/api/playlist-service/song-data/${id}/uploadService`;
    expect((await call("GET", data, { token: owner.token })).status).toBe(200);
    for (const token of [stranger.token, guest, undefined]) {
      const res = await call("GET", data, token ? { token } : {});
      expect([res.status, res.body.message]).toEqual([404, "song not found"]);
    }
    // Not in the stranger's search or their view of the owner's songs either.
    const listed = await call("GET", `/api/upload-service/users/${owner.uuid}/songs`, { token: stranger.token });
    expect((listed.body.songs as { songId: string }[] | undefined)?.some((x) => x.songId === id) ?? false).toBe(false);
  });

  it("the owner and an admin read and play it", async () => {
    for (const token of [owner.token, admin]) {
      expect((await call("GET", r(`/songs/${id}`), { token })).status).toBe(200);
      expect((await call("GET", `/api/upload-service/songs/${id}`, { token })).status).toBe(200);
      const url = await call("GET", `/api/upload-service/songs/${id}/hls-playlist-url`, { token });
      expect(url.status).toBe(200);
      await play(url.body.hlsPlaylistUrl as string, token);
    }
  });

  it("its owner plays it in a room: a listener of the room hears it; a stranger naming the room does not", async () => {
    const listener = await platform.signUp();
    const queued = await call("POST", "/api/playlist-service/crate/special/queue/songs", {
      token: owner.token,
      body: {
        songs: [
          { trackName: "Issue 23 tune", artistName: "Issue 23", duration: 3, musicProviders: { uploadService: id } },
        ],
      },
    });
    expect(queued.status).toBe(200);
    const created = await call("POST", r("/rooms/infrastructure"), {
      token: owner.token,
      body: { name: `Private play ${randomUUID().slice(0, 8)}` },
    });
    expect(created.status).toBe(200);
    const room = (created.body.room as { uuid: string }).uuid;

    // Before the owner plays it there, the listener is a stranger to the song.
    const abort = new AbortController();
    const stage = joinStage(listener.token, room, abort.signal);
    try {
      await stage.until((st) => (st.listeners?.users ?? 0) >= 1, "the listener in the room");
      expect((await call("GET", r(`/songs/${id}/hls-playlist?room=${room}`), { token: listener.token })).status).toBe(
        404,
      );
      const seat = await call("POST", `/api/social-service/rooms/${room}/seats`, { token: owner.token, body: {} });
      expect(seat.status).toBe(200);
      await stage.until((st) => st.play?.song?.musicProviders["uploadService"] === id, "the upload playing");

      const url = await call("GET", `/api/upload-service/songs/${id}/hls-playlist-url?room=${room}`, {
        token: listener.token,
      });
      expect(url.status).toBe(200);
      expect(url.body.hlsPlaylistUrl).toBe(r(`/songs/${id}/hls-playlist?room=${room}`));
      await play(url.body.hlsPlaylistUrl as string, listener.token);
      // A native player's URL (no header at all) plays too.
      expect(url.body.nativePlaylistUrl).toMatch(/\?ticket=/);
      const native = await raw(url.body.nativePlaylistUrl as string);
      expect(native.status).toBe(200);

      for (const token of [stranger.token, guest]) {
        const res = await call("GET", r(`/songs/${id}/hls-playlist?room=${room}`), { token });
        expect(res.status).toBe(404);
      }
    } finally {
      abort.abort();
      await stage.done;
    }
  }, 120_000);
});

/** The listener's join stream of the room, the stage rebuilt from its state and patches. */
function joinStage(token: string, room: string, signal: AbortSignal) {
  const client = createClient(StageService, bearerTransport(platform.url, token));
  let json: JsonValue | null = null;
  let failure: unknown = null;
  const done = (async () => {
    try {
      for await (const m of client.join({ room }, { signal })) {
        if (m.kind.case === "state") json = toJson(StageSchema, m.kind.value);
        else if (m.kind.case === "patch") applyPatch(json, JSON.parse(m.kind.value.operations));
      }
    } catch (err) {
      if (!signal.aborted) failure = err;
    }
  })();
  return {
    done,
    async until(test: (st: Stage) => boolean, what: string): Promise<Stage> {
      const deadline = Date.now() + 60_000;
      for (;;) {
        if (failure) throw failure;
        if (json !== null && test(fromJson(StageSchema, json))) return fromJson(StageSchema, json);
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; stage: ${JSON.stringify(json)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}
