/* eslint-disable @typescript-eslint/no-explicit-any -- the suite reads REST answers as plain JSON */
// The crate paths of the playlist service over REST through the gateway: every /api/playlist-service/crate…
// row of operations.tsv, with its refusals (another user's crate is never changeable; guests and anonymous
// callers get 401; bad input a 400 naming the field).
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { sharedPlatform, type Answer, type TestPlatform } from "./support/platform.ts";

let platform: TestPlatform;
let alice: string;
let bob: string;
let aliceUuid: string;

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

const song = (n: number) => ({
  trackName: `E2E Track ${n}`,
  artistName: "E2E Artist",
  duration: 100 + n * 10,
  musicProviders: { spotify: `e2e-${randomUUID()}` },
  thumbnails: { spotify: `https://img.test/e2e-${n}.jpg` },
});

beforeAll(async () => {
  platform = await sharedPlatform();
  const a = await platform.signUp();
  const b = await platform.signUp();
  alice = a.token;
  aliceUuid = a.user.uuid;
  bob = b.token;
});

describe("crates through the gateway", () => {
  it("create (New Playlist #), get, patch, list (limit/offset), delete", async () => {
    const first = ok(await call("POST", "/crate", alice, {}));
    expect(first).toMatchObject({ crateName: "New Playlist #1", userUuid: aliceUuid, crateSongsNumber: 0 });
    const named = ok(await call("POST", "/crate", alice, { crateName: "Road trip", description: "loud" }));
    expect(ok(await call("GET", `/crate/${named.crateUuid}`, alice))).toMatchObject({
      crateName: "Road trip",
      description: "loud",
    });
    expect(ok(await call("PATCH", `/crate/${named.crateUuid}`, alice, { crateName: "Night drive" }))).toMatchObject({
      crateName: "Night drive",
      description: "loud",
    });
    const mine = ok(await call("GET", "/crate/user?limit=100&offset=0", alice));
    expect(mine.crates.map((c: any) => c.crateName)).toEqual(["default", "tt-stars", "Night drive", "New Playlist #1"]);
    expect(mine.total).toBe(4);
    const paged = ok(await call("GET", "/crate/user?limit=1&offset=2", alice));
    expect(paged.crates.map((c: any) => c.crateName)).toEqual(["Night drive"]);
    refused(await call("GET", "/crate/user?limit=101", alice), 400, /limit/);
    refused(await call("GET", "/crate/user?limit=abc", alice), 400);

    const publicView = ok(await call("GET", `/crate/user/${aliceUuid}?limit=10`, bob));
    expect(publicView.crates.map((c: any) => c.crateName)).toEqual(["Night drive", "New Playlist #1"]);
    refused(await call("GET", "/crate/user/not-a-uuid", bob), 400, /userUuid|user_uuid/);

    ok(await call("DELETE", `/crate/${first.crateUuid}`, alice));
    refused(await call("GET", `/crate/${first.crateUuid}`, alice), 404, "crate not found");
    expect(ok(await call("POST", "/crate", alice, { crateName: "" })).crateName).toBe("New Playlist #1");
  });

  it("songs: add, list (limit/offset), move to newPosition, current position, remove, shuffle, copy", async () => {
    const crate = ok(await call("POST", "/crate", alice, { crateName: "Songs" }));
    const added = ok(
      await call("POST", `/crate/${crate.crateUuid}/songs`, alice, { songs: [song(1), song(2), song(3)] }),
    );
    expect(added.songs.map((s: any) => s.position)).toEqual([0, 1, 2]);
    expect(added.crate.crateSongsNumber).toBe(3);
    expect(added.crate.thumbnails).toHaveLength(3);

    const dup = ok(
      await call("POST", `/crate/${crate.crateUuid}/songs`, alice, { songs: [{ songId: added.songs[0].songId }] }),
    );
    expect(dup.songs).toEqual([]);
    expect(dup.skipped).toEqual([
      {
        index: 0,
        crateSongUuid: added.songs[0].crateSongUuid,
        songId: added.songs[0].songId,
        reason: "already in crate",
      },
    ]);

    const page = ok(await call("GET", `/crate/${crate.crateUuid}/songs?limit=2&offset=1`, alice));
    expect(page).toMatchObject({ total: 3, limit: 2, offset: 1 });
    expect(page.songs.map((s: any) => [s.position, s.trackName])).toEqual([
      [1, "E2E Track 2"],
      [2, "E2E Track 3"],
    ]);
    refused(await call("GET", `/crate/${crate.crateUuid}/songs?limit=301`, alice), 400, /limit/);

    const moved = ok(
      await call("PUT", `/crate/${crate.crateUuid}/songs/${added.songs[2].crateSongUuid}/position`, alice, {
        newPosition: 0,
      }),
    );
    expect(moved).toMatchObject({ position: 0, trackName: "E2E Track 3" });
    const order = ok(await call("GET", `/crate/${crate.crateUuid}/songs`, alice));
    expect(order.songs.map((s: any) => s.trackName)).toEqual(["E2E Track 3", "E2E Track 1", "E2E Track 2"]);

    expect(
      ok(await call("PUT", `/crate/${crate.crateUuid}/current-position`, alice, { currentPosition: 2 }))
        .currentPosition,
    ).toBe(2);
    refused(
      await call("PUT", `/crate/${crate.crateUuid}/current-position`, alice, { currentPosition: 9 }),
      400,
      /currentPosition/,
    );
    refused(
      await call("PUT", `/crate/${crate.crateUuid}/current-position`, alice, { currentPosition: -1 }),
      400,
      /currentPosition/,
    );

    const removed = ok(await call("DELETE", `/crate/${crate.crateUuid}/songs/${added.songs[0].crateSongUuid}`, alice));
    expect(removed.crateSongsNumber).toBe(2);
    refused(
      await call("DELETE", `/crate/${crate.crateUuid}/songs/${added.songs[0].crateSongUuid}`, alice),
      404,
      "crate song not found",
    );

    const shuffled = ok(await call("POST", `/crate/${crate.crateUuid}/songs/shuffle`, alice, {}));
    expect(shuffled.songs.map((s: any) => s.trackName).sort()).toEqual(["E2E Track 2", "E2E Track 3"]);

    // Copy into the queue (002 §4): clear the queue, copy with srcCrateId, read the queue.
    ok(await call("POST", "/crate/special/queue/songs/clear", alice, {}));
    const queue = ok(await call("GET", "/crate/special/queue", alice));
    const copied = ok(await call("PUT", `/crate/${queue.crateUuid}/copy`, alice, { srcCrateId: crate.crateUuid }));
    expect(copied.crateSongsNumber).toBe(2);
    expect(ok(await call("GET", "/crate/special/queue/songs", alice)).songs.map((s: any) => s.trackName)).toEqual(
      shuffled.songs.map((s: any) => s.trackName),
    );
  });

  for (const kind of ["queue", "likes"] as const) {
    it(`/crate/special/${kind}: every documented call, never deletable`, async () => {
      const base = `/crate/special/${kind}`;
      const crate = ok(await call("GET", base, bob));
      expect(crate).toMatchObject({ crateName: kind === "queue" ? "default" : "tt-stars", special: kind });
      const added = ok(await call("POST", `${base}/songs`, bob, { songs: [song(1), song(2)] }));
      expect(added.songs).toHaveLength(2);
      expect(ok(await call("GET", `${base}/songs?limit=1&offset=1`, bob)).songs.map((s: any) => s.trackName)).toEqual([
        "E2E Track 2",
      ]);
      expect(
        ok(await call("PUT", `${base}/songs/${added.songs[1].crateSongUuid}/position`, bob, { newPosition: 0 }))
          .position,
      ).toBe(0);
      expect(ok(await call("PUT", `${base}/current-position`, bob, { currentPosition: 1 })).currentPosition).toBe(1);
      expect(ok(await call("POST", `${base}/songs/shuffle`, bob, {})).songs).toHaveLength(2);
      expect(ok(await call("DELETE", `${base}/songs/${added.songs[0].crateSongUuid}`, bob)).crateSongsNumber).toBe(1);
      expect(ok(await call("POST", `${base}/songs/clear`, bob, {})).crateSongsNumber).toBe(0);
      refused(await call("DELETE", `/crate/${crate.crateUuid}`, bob), 403, "special crates cannot be deleted");
      refused(
        await call("PATCH", `/crate/${crate.crateUuid}`, bob, { crateName: "renamed" }),
        403,
        "special crates keep their names",
      );
      // Another user's special crate is not even readable.
      refused(await call("GET", `/crate/${crate.crateUuid}`, alice), 404, "crate not found");
      refused(await call("GET", `/crate/${crate.crateUuid}/songs`, alice), 404, "crate not found");
    });
  }

  it("another user's crate is never changeable (403), and a guest or no token is 401", async () => {
    const crate = ok(await call("POST", "/crate", alice, { crateName: "Alice's" }));
    const { songs } = ok(await call("POST", `/crate/${crate.crateUuid}/songs`, alice, { songs: [song(7), song(8)] }));
    const bobQueue = ok(await call("GET", "/crate/special/queue", bob));
    const forbidden = (res: Answer) => refused(res, 403, "crate belongs to another user");
    forbidden(await call("POST", `/crate/${crate.crateUuid}/songs`, bob, { songs: [song(9)] }));
    forbidden(await call("DELETE", `/crate/${crate.crateUuid}/songs/${songs[0].crateSongUuid}`, bob));
    forbidden(
      await call("PUT", `/crate/${crate.crateUuid}/songs/${songs[0].crateSongUuid}/position`, bob, { newPosition: 1 }),
    );
    forbidden(await call("PUT", `/crate/${crate.crateUuid}/current-position`, bob, { currentPosition: 1 }));
    forbidden(await call("POST", `/crate/${crate.crateUuid}/songs/shuffle`, bob, {}));
    forbidden(await call("PATCH", `/crate/${crate.crateUuid}`, bob, { crateName: "mine now" }));
    forbidden(await call("DELETE", `/crate/${crate.crateUuid}`, bob));
    forbidden(await call("PUT", `/crate/${crate.crateUuid}/copy`, bob, { srcCrateId: bobQueue.crateUuid }));
    // Reading it is the public view; copying it into one's own queue is allowed.
    expect(ok(await call("GET", `/crate/${crate.crateUuid}`, bob)).songs).toHaveLength(2);
    expect(
      ok(await call("PUT", `/crate/${bobQueue.crateUuid}/copy`, bob, { srcCrateId: crate.crateUuid })).crateSongsNumber,
    ).toBeGreaterThanOrEqual(2);
    // Nothing changed for Alice.
    const after = ok(await call("GET", `/crate/${crate.crateUuid}/songs`, alice));
    expect(after.songs.map((s: any) => s.crateSongUuid)).toEqual(songs.map((s: any) => s.crateSongUuid));

    const guest = await platform.craft({ typ: "guest", role: "guest" });
    refused(await call("GET", "/crate/user", guest), 401);
    refused(await call("GET", "/crate/special/queue", undefined), 401);
    refused(await call("POST", "/crate", undefined, {}), 401);
  });

  it("bad input is a 400 naming the field, never a 500", async () => {
    const crate = ok(await call("POST", "/crate", alice, {}));
    refused(await call("GET", "/crate/not-a-uuid", alice), 400, /crateId|crate_id/);
    refused(await call("POST", `/crate/${crate.crateUuid}/songs`, alice, {}), 400, /songs/);
    refused(
      await call("POST", `/crate/${crate.crateUuid}/songs`, alice, { songs: [{ artistName: "x" }] }),
      400,
      "songs[0].trackName missing in request",
    );
    refused(await call("POST", `/crate/${crate.crateUuid}/songs`, alice, { songs: "nope" }), 400);
    refused(
      await call("POST", `/crate/${crate.crateUuid}/songs`, alice, {
        songs: Array.from({ length: 301 }, (_, i) => song(i)),
      }),
      400,
      /songs/,
    );
    refused(await call("POST", "/crate", alice, { crateName: "x".repeat(101) }), 400, /crateName/);
    refused(await call("POST", "/crate", alice, { import: { musicProvider: "myspace" } }), 400, /musicProvider/);
    refused(
      await call("PUT", `/crate/${crate.crateUuid}/songs/${randomUUID()}/position`, alice, {
        newPosition: 99999999999,
      }),
      400,
    );
    refused(
      await call("PUT", `/crate/${crate.crateUuid}/songs/${randomUUID()}/position`, alice, { newPosition: 1 }),
      404,
      "crate song not found",
    );
    refused(
      await call("PUT", `/crate/${crate.crateUuid}/copy`, alice, { srcCrateId: randomUUID() }),
      404,
      "crate not found",
    );
    refused(await call("PUT", `/crate/${crate.crateUuid}/copy`, alice, {}), 400, /srcCrateId/);
    refused(await call("DELETE", `/crate/${randomUUID()}`, alice), 404, "crate not found");
  });
});
