// CrateService through the host (every interceptor): special crates, "New Playlist #", adding with the merge
// rule, positions (moves, concurrent moves, renumbering), shuffle, copy, clear, and ownership refusals.
import { Code, type Client } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consumeEvents } from "@tt/kit";
import { createServiceHarness, type ServiceHarness, codeAndMessageOf } from "@tt/kit/testing";
import { CrateChangedSchema, type CrateChanged } from "@tt/proto/tt/playlist/v1/events_pb";
import { CrateService } from "@tt/proto/tt/playlist/v1/crate_service_pb";
import { playlistServiceDefinition } from "../index.ts";
import { RANK_GAP } from "../modules/crates/crate-store.ts";

let h: ServiceHarness;

beforeAll(async () => {
  h = await createServiceHarness(playlistServiceDefinition, { network: false });
});
afterAll(() => h?.close());

const user = async (): Promise<Client<typeof CrateService>> => h.client(CrateService, { token: await h.tokens.user() });

const song = (n: number, extra: Record<string, unknown> = {}) => ({
  trackName: `Track ${n}`,
  artistName: `Artist ${n % 7}`,
  duration: 180 + n,
  musicProviders: { spotify: `sp-${n}-${Math.random().toString(36).slice(2, 8)}` },
  thumbnails: { spotify: `https://img.test/${n}.jpg` },
  ...extra,
});

async function positionsOf(client: Client<typeof CrateService>, crateUuid: string) {
  const { songs, total } = await client.listCrateSongs({ crateUuid, limit: 300 });
  expect(songs.map((s) => s.position)).toEqual([...Array(total).keys()]);
  return songs;
}

describe("special crates", () => {
  it("exist from the first call: the queue (default) and likes (tt-stars), never deletable or renamable", async () => {
    const me = await user();
    const { crates } = await me.listMyCrates({});
    expect(crates.map((c) => [c.special, c.crateName])).toEqual([
      ["queue", "default"],
      ["likes", "tt-stars"],
    ]);
    const queue = (await me.getQueue({})).crate!;
    expect(queue.crateUuid).toBe(crates[0]!.crateUuid);
    expect(await codeAndMessageOf(me.deleteCrate({ crateUuid: queue.crateUuid }))).toEqual([
      Code.PermissionDenied,
      "special crates cannot be deleted",
    ]);
    expect(await codeAndMessageOf(me.updateCrate({ crateUuid: queue.crateUuid, crateName: "mine" }))).toEqual([
      Code.PermissionDenied,
      "special crates keep their names",
    ]);
    const likes = (await me.getLikes({})).crate!;
    expect(likes.crateName).toBe("tt-stars");
  });

  it("have every documented call: add, move, current position, remove, shuffle, clear", async () => {
    const me = await user();
    const added = await me.addQueueSongs({ songs: [song(1), song(2), song(3)] });
    expect(added.songs.map((s) => s.position)).toEqual([0, 1, 2]);
    await me.moveQueueSong({ crateSongUuid: added.songs[2]!.crateSongUuid, newPosition: 0 });
    const listed = await me.listQueueSongs({});
    expect(listed.songs.map((s) => s.trackName)).toEqual(["Track 3", "Track 1", "Track 2"]);
    expect((await me.setQueueCurrentPosition({ currentPosition: 2 })).crate!.currentPosition).toBe(2);
    await me.removeQueueSong({ crateSongUuid: added.songs[0]!.crateSongUuid });
    expect((await me.listQueueSongs({})).total).toBe(2);
    const shuffled = await me.shuffleQueueSongs({});
    expect(shuffled.crate!.songs.map((s) => s.trackName).sort()).toEqual(["Track 2", "Track 3"]);
    const cleared = await me.clearQueueSongs({});
    expect(cleared.crate!.crateSongsNumber).toBe(0);
    expect((await me.getQueue({})).crate!.songs).toEqual([]);

    await me.addLikesSongs({ songs: [song(4)] });
    expect((await me.listLikesSongs({})).songs.map((s) => s.trackName)).toEqual(["Track 4"]);
    await me.clearLikesSongs({});
    expect((await me.getLikes({})).crate!.crateSongsNumber).toBe(0);
  });
});

describe("New Playlist #", () => {
  it("names an unnamed crate with the lowest unused positive number", async () => {
    const me = await user();
    const a = (await me.createCrate({})).crate!;
    const b = (await me.createCrate({ crateName: "" })).crate!;
    expect([a.crateName, b.crateName]).toEqual(["New Playlist #1", "New Playlist #2"]);
    await me.deleteCrate({ crateUuid: a.crateUuid });
    expect((await me.createCrate({})).crate!.crateName).toBe("New Playlist #1");
    expect((await me.createCrate({})).crate!.crateName).toBe("New Playlist #3");
  });

  it("gives concurrent unnamed crates different numbers", async () => {
    const me = await user();
    const made = await Promise.all(Array.from({ length: 5 }, () => me.createCrate({})));
    expect(made.map((r) => r.crate!.crateName).sort()).toEqual([1, 2, 3, 4, 5].map((n) => `New Playlist #${n}`));
  });
});

describe("crates", () => {
  it("creates, renames, describes, lists (paged) and deletes", async () => {
    const me = await user();
    const c = (await me.createCrate({ crateName: "Road trip", description: "loud" })).crate!;
    expect(c).toMatchObject({ crateName: "Road trip", description: "loud", crateSongsNumber: 0, special: "" });
    const renamed = (await me.updateCrate({ crateUuid: c.crateUuid, crateName: "Night drive" })).crate!;
    expect(renamed).toMatchObject({ crateName: "Night drive", description: "loud" });
    const page = await me.listMyCrates({ limit: 2, offset: 0 });
    expect(page).toMatchObject({ total: 3, limit: 2 });
    expect(page.crates).toHaveLength(2);
    expect((await me.listMyCrates({ limit: 2, offset: 2 })).crates.map((x) => x.crateUuid)).toEqual([c.crateUuid]);
    expect(await codeAndMessageOf(me.listMyCrates({ limit: 101 }))).toEqual([
      Code.InvalidArgument,
      expect.stringContaining("limit"),
    ]);
    await me.deleteCrate({ crateUuid: c.crateUuid });
    expect(await codeAndMessageOf(me.getCrate({ crateId: c.crateUuid }))).toEqual([Code.NotFound, "crate not found"]);
  });

  it("adds songs at the end or at a position, and pages them (300 at most)", async () => {
    const me = await user();
    const c = (await me.createCrate({})).crate!;
    await me.addCrateSongs({ crateUuid: c.crateUuid, songs: [song(1), song(2)] });
    const inserted = await me.addCrateSongs({ crateUuid: c.crateUuid, songs: [song(3)], position: 1 });
    expect(inserted.songs[0]!.position).toBe(1);
    const songs = await positionsOf(me, c.crateUuid);
    expect(songs.map((s) => s.trackName)).toEqual(["Track 1", "Track 3", "Track 2"]);
    expect(songs[0]).toMatchObject({ artistName: "Artist 1", duration: 181, status: "PENDING_REQUEST" });
    expect(songs[0]!.songId).toMatch(/^[0-9a-f-]{36}$/);
    expect(songs[0]!.songShortId).toMatch(/^[A-Za-z0-9]{10}$/);
    const second = await me.listCrateSongs({ crateUuid: c.crateUuid, limit: 1, offset: 2 });
    expect(second).toMatchObject({ total: 3, limit: 1, offset: 2 });
    expect(second.songs.map((s) => [s.position, s.trackName])).toEqual([[2, "Track 2"]]);
    expect(await codeAndMessageOf(me.listCrateSongs({ crateUuid: c.crateUuid, limit: 301 }))).toEqual([
      Code.InvalidArgument,
      expect.stringContaining("limit"),
    ]);
    const crate = (await me.getCrate({ crateId: c.crateUuid })).crate!;
    expect(crate).toMatchObject({ crateSongsNumber: 3, count: 3 });
    expect(crate.thumbnails).toEqual(["https://img.test/1.jpg", "https://img.test/3.jpg", "https://img.test/2.jpg"]);
  });

  it("merges a track already in the crate (same track by 002 §5): not added twice, listed in skipped", async () => {
    const me = await user();
    const c = (await me.createCrate({})).crate!;
    const first = await me.addCrateSongs({
      crateUuid: c.crateUuid,
      songs: [{ trackName: "Hello", artistName: "Adele", duration: 295, isrc: "GBBKS1500214" }],
    });
    const again = await me.addCrateSongs({
      crateUuid: c.crateUuid,
      songs: [
        { trackName: "HELLO", artistName: "adele", duration: 299 }, // same names, 4 s apart
        { trackName: "Hello (radio)", artistName: "Adele", isrc: "gbbks1500214" }, // same isrc
        { trackName: "Hello", artistName: "Adele", duration: 200 }, // 95 s apart: another track
      ],
    });
    expect(again.skipped.map((s) => [s.index, s.crateSongUuid, s.reason])).toEqual([
      [0, first.songs[0]!.crateSongUuid, "already in crate"],
      [1, first.songs[0]!.crateSongUuid, "already in crate"],
    ]);
    expect(again.songs).toHaveLength(1);
    expect(again.crate!.crateSongsNumber).toBe(2);
  });

  it("resolves one call's songs together: a track twice in the call is added once", async () => {
    const me = await user();
    const c = (await me.createCrate({})).crate!;
    const tag = Math.random().toString(36).slice(2, 8);
    const res = await me.addCrateSongs({
      crateUuid: c.crateUuid,
      songs: [
        { trackName: `Twice ${tag}`, artistName: "Band", duration: 200, albumName: "LP" },
        { trackName: `Other ${tag}`, artistName: "Band", duration: 100, albumName: "LP" },
        { trackName: `TWICE ${tag}`, artistName: "band", duration: 203 },
      ],
    });
    expect(res.songs.map((s) => s.trackName)).toEqual([`Twice ${tag}`, `Other ${tag}`]);
    expect(res.skipped.map((s) => [s.index, s.crateSongUuid])).toEqual([[2, res.songs[0]!.crateSongUuid]]);
    // The same descriptions again resolve to the same catalogue songs.
    const again = await me.addLikesSongs({ songs: [{ trackName: `other ${tag}`, artistName: "BAND", duration: 102 }] });
    expect(again.songs[0]!.songId).toBe(res.songs[1]!.songId);
  });

  it("refuses bad input with a 400 naming the field", async () => {
    const me = await user();
    const c = (await me.createCrate({})).crate!;
    expect(await codeAndMessageOf(me.addCrateSongs({ crateUuid: c.crateUuid, songs: [] }))).toEqual([
      Code.InvalidArgument,
      "songs missing in request",
    ]);
    expect(await codeAndMessageOf(me.addCrateSongs({ crateUuid: c.crateUuid, songs: [{ artistName: "x" }] }))).toEqual([
      Code.InvalidArgument,
      "songs[0].trackName missing in request",
    ]);
    expect(
      await codeAndMessageOf(
        me.addCrateSongs({
          crateUuid: c.crateUuid,
          songs: [{ trackName: "a", artistName: "b", musicProviders: { myspace: "1" } }],
        }),
      ),
    ).toEqual([Code.InvalidArgument, expect.stringContaining("unknown provider")]);
    expect(
      await codeAndMessageOf(
        me.addCrateSongs({ crateUuid: c.crateUuid, songs: [{ songId: "3f0e9b7e-8a3c-4f4e-9d55-000000000000" }] }),
      ),
    ).toEqual([Code.NotFound, "song not found"]);
    expect(await codeAndMessageOf(me.getCrate({ crateId: "not-a-uuid" }))).toEqual([
      Code.InvalidArgument,
      expect.stringContaining("crateId"),
    ]);
    expect(await codeAndMessageOf(me.setCrateCurrentPosition({ crateUuid: c.crateUuid, currentPosition: 5 }))).toEqual([
      Code.InvalidArgument,
      "currentPosition must be between 0 and 0",
    ]);
    expect(await codeAndMessageOf(me.removeCrateSong({ crateUuid: c.crateUuid, crateSongUuid: c.crateUuid }))).toEqual([
      Code.NotFound,
      "crate song not found",
    ]);
  });

  it("moves a song to newPosition (past the end: last), keeping every position once", async () => {
    const me = await user();
    const c = (await me.createCrate({})).crate!;
    const { songs } = await me.addCrateSongs({ crateUuid: c.crateUuid, songs: [1, 2, 3, 4, 5].map((n) => song(n)) });
    const moved = await me.moveCrateSong({
      crateUuid: c.crateUuid,
      crateSongUuid: songs[0]!.crateSongUuid,
      newPosition: 3,
    });
    expect(moved.song!.position).toBe(3);
    expect((await positionsOf(me, c.crateUuid)).map((s) => s.trackName)).toEqual([
      "Track 2",
      "Track 3",
      "Track 4",
      "Track 1",
      "Track 5",
    ]);
    await me.moveCrateSong({ crateUuid: c.crateUuid, crateSongUuid: songs[1]!.crateSongUuid, newPosition: 999 });
    expect((await positionsOf(me, c.crateUuid)).map((s) => s.trackName)).toEqual([
      "Track 3",
      "Track 4",
      "Track 1",
      "Track 5",
      "Track 2",
    ]);
  });

  it("renumbers when two neighbours have no room left, and the order stays right", async () => {
    const me = await user();
    const c = (await me.createCrate({})).crate!;
    const { songs } = await me.addCrateSongs({ crateUuid: c.crateUuid, songs: [1, 2, 3, 4].map((n) => song(n)) });
    // Moving the last song between the first two, again and again, halves the gap each time: past log2(gap)
    // moves the crate must be renumbered.
    let expected = songs.map((s) => s.crateSongUuid);
    const moves = Math.ceil(Math.log2(RANK_GAP)) + 3;
    for (let i = 0; i < moves; i++) {
      const last = expected[expected.length - 1]!;
      await me.moveCrateSong({ crateUuid: c.crateUuid, crateSongUuid: last, newPosition: 1 });
      expected = [expected[0]!, last, ...expected.slice(1, -1)];
    }
    expect((await positionsOf(me, c.crateUuid)).map((s) => s.crateSongUuid)).toEqual(expected);
  });

  it("concurrent moves never leave a duplicate or missing position", async () => {
    const me = await user();
    const c = (await me.createCrate({})).crate!;
    const { songs } = await me.addCrateSongs({
      crateUuid: c.crateUuid,
      songs: Array.from({ length: 30 }, (_, n) => song(n)),
    });
    await Promise.all(
      songs.map((s, i) =>
        me.moveCrateSong({ crateUuid: c.crateUuid, crateSongUuid: s.crateSongUuid, newPosition: (i * 7) % 30 }),
      ),
    );
    const after = await positionsOf(me, c.crateUuid);
    expect(after).toHaveLength(30);
    expect(new Set(after.map((s) => s.crateSongUuid))).toEqual(new Set(songs.map((s) => s.crateSongUuid)));
    expect((await me.getCrate({ crateId: c.crateUuid })).crate!.crateSongsNumber).toBe(30);
  });

  it("shuffles in one go: the same songs, positions 0…n-1", async () => {
    const me = await user();
    const c = (await me.createCrate({})).crate!;
    const { songs } = await me.addCrateSongs({
      crateUuid: c.crateUuid,
      songs: Array.from({ length: 20 }, (_, n) => song(n)),
    });
    const shuffled = (await me.shuffleCrateSongs({ crateUuid: c.crateUuid })).crate!;
    expect(shuffled.songs.map((s) => s.position)).toEqual([...Array(20).keys()]);
    expect(new Set(shuffled.songs.map((s) => s.crateSongUuid))).toEqual(new Set(songs.map((s) => s.crateSongUuid)));
  });

  it("copies a crate into the queue (clear, copy with srcCrateId), skipping songs already there", async () => {
    const me = await user();
    const src = (await me.createCrate({})).crate!;
    const added = await me.addCrateSongs({ crateUuid: src.crateUuid, songs: [1, 2, 3].map((n) => song(n)) });
    const queue = (await me.getQueue({})).crate!;
    await me.addQueueSongs({ songs: [{ songId: added.songs[1]!.songId }] });
    const copied = (await me.copyCrate({ crateId: queue.crateUuid, srcCrateId: src.crateUuid })).crate!;
    expect(copied.songs.map((s) => s.trackName)).toEqual(["Track 2", "Track 1", "Track 3"]);
    await me.clearQueueSongs({});
    const again = (await me.copyCrate({ crateId: queue.crateUuid, srcCrateId: src.crateUuid })).crate!;
    expect(again.songs.map((s) => [s.position, s.trackName])).toEqual([
      [0, "Track 1"],
      [1, "Track 2"],
      [2, "Track 3"],
    ]);
  });
});

describe("another user's crates", () => {
  it("are readable in the public view but never changeable; their special crates are private", async () => {
    const owner = await user();
    const other = await user();
    const c = (await owner.createCrate({ crateName: "Mine" })).crate!;
    const { songs } = await owner.addCrateSongs({ crateUuid: c.crateUuid, songs: [song(1), song(2)] });
    const ownerQueue = (await owner.getQueue({})).crate!;

    expect((await other.getCrate({ crateId: c.crateUuid })).crate!.crateName).toBe("Mine");
    const theirs = await other.listUserCrates({ userUuid: c.userUuid });
    expect(theirs.crates.map((x) => x.crateUuid)).toEqual([c.crateUuid]);

    const forbidden: [Code, string] = [Code.PermissionDenied, "crate belongs to another user"];
    expect(await codeAndMessageOf(other.addCrateSongs({ crateUuid: c.crateUuid, songs: [song(3)] }))).toEqual(
      forbidden,
    );
    expect(
      await codeAndMessageOf(other.removeCrateSong({ crateUuid: c.crateUuid, crateSongUuid: songs[0]!.crateSongUuid })),
    ).toEqual(forbidden);
    expect(
      await codeAndMessageOf(
        other.moveCrateSong({ crateUuid: c.crateUuid, crateSongUuid: songs[0]!.crateSongUuid, newPosition: 1 }),
      ),
    ).toEqual(forbidden);
    expect(await codeAndMessageOf(other.shuffleCrateSongs({ crateUuid: c.crateUuid }))).toEqual(forbidden);
    expect(await codeAndMessageOf(other.updateCrate({ crateUuid: c.crateUuid, crateName: "x" }))).toEqual(forbidden);
    expect(await codeAndMessageOf(other.deleteCrate({ crateUuid: c.crateUuid }))).toEqual(forbidden);
    expect(
      await codeAndMessageOf(other.setCrateCurrentPosition({ crateUuid: c.crateUuid, currentPosition: 1 })),
    ).toEqual(forbidden);
    const otherQueue = (await other.getQueue({})).crate!;
    expect(await codeAndMessageOf(other.copyCrate({ crateId: c.crateUuid, srcCrateId: otherQueue.crateUuid }))).toEqual(
      forbidden,
    );
    // Another user's queue: not found, for reading and changing alike.
    expect(await codeAndMessageOf(other.getCrate({ crateId: ownerQueue.crateUuid }))).toEqual([
      Code.NotFound,
      "crate not found",
    ]);
    expect(
      await codeAndMessageOf(other.copyCrate({ crateId: otherQueue.crateUuid, srcCrateId: ownerQueue.crateUuid })),
    ).toEqual([Code.NotFound, "crate not found"]);
    expect((await owner.listCrateSongs({ crateUuid: c.crateUuid })).total).toBe(2);
  });

  it("guests and anonymous callers are refused with 401", async () => {
    const guest = h.client(CrateService, { token: await h.tokens.guest() });
    expect((await codeAndMessageOf(guest.listMyCrates({})))[0]).toBe(Code.Unauthenticated);
    const odd = h.client(CrateService, {
      token: await h.tokens.sign({ typ: "user", role: "user", sub: "not-a-uuid" }),
    });
    expect((await codeAndMessageOf(odd.listMyCrates({})))[0]).toBe(Code.Unauthenticated);
    const anonymous = h.client(CrateService);
    expect((await codeAndMessageOf(anonymous.getQueue({})))[0]).toBe(Code.Unauthenticated);
  });
});

describe("events", () => {
  it("announce a change of the queue (tt.playlist.crate.changed) through the outbox", async () => {
    const me = await user();
    const queue = (await me.getQueue({})).crate!;
    const seen: CrateChanged[] = [];
    const sub = await consumeEvents(h.bus, CrateChangedSchema, async (event) => void seen.push(event), {
      durable: `crates-test-${Math.random().toString(36).slice(2, 10)}`,
      orm: h.orm,
      deliver: "new",
    });
    try {
      await me.addQueueSongs({ songs: [song(1), song(2)] });
      const deadline = Date.now() + 10_000;
      while (!seen.some((e) => e.crateUuid === queue.crateUuid) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(seen.find((e) => e.crateUuid === queue.crateUuid)).toMatchObject({
        special: "queue",
        change: "added",
        crateSongsNumber: 2,
        userUuid: queue.userUuid,
      });
    } finally {
      await sub.unsubscribe();
    }
  });
});
