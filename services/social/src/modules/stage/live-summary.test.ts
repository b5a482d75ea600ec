import { create, fromBinary } from "@bufbuild/protobuf";
import { createMemoryBus } from "@tt/kit";
import { eventually } from "@tt/kit/testing";
import { RoomLiveSchema, type RoomLive } from "@tt/proto/tt/room/v1/room_pb";
import { StageSchema, type Stage } from "@tt/proto/tt/social/v1/stage_pb";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { LiveSummaries, roomLiveOf } from "./live-summary.ts";

const stage = (version: number, users: number, song?: string, likes = 0): Stage =>
  create(StageSchema, {
    version: BigInt(version),
    room: { uuid: "room", name: "Room", type: "PUBLIC" },
    listeners: { users, guests: 1 },
    seats: song ? [{ userUuid: "dj-1" }, { userUuid: "dj-2" }] : [],
    votes: { likes },
    ...(song
      ? {
          play: {
            playId: "p",
            djUuid: "dj-1",
            duration: 200,
            song: { trackName: song, artistName: "Artist", thumbnails: { small: "x", large: "https://img/1.jpg" } },
          },
        }
      : {}),
  });

async function bucket() {
  const kv = await createMemoryBus().kv("live-test");
  const writes: (RoomLive | null)[] = [];
  await kv.watch((e) => writes.push(e.operation === "PUT" ? fromBinary(RoomLiveSchema, e.value) : null));
  return { kv, writes };
}

describe("the rooms' live summaries", () => {
  it("are what a card shows: listeners with guests, the song with its artwork, the DJs in seat order", () => {
    expect(roomLiveOf(stage(3, 2, "Song"))).toMatchObject({
      listeners: 3,
      nowPlaying: { title: "Song", artist: "Artist", artworkUrl: "https://img/1.jpg", djUuid: "dj-1", duration: 200 },
      djUuids: ["dj-1", "dj-2"],
      stageVersion: 3n,
    });
    expect(roomLiveOf(stage(1, 0)).nowPlaying).toBeUndefined();
  });

  it("write a change at once, then at most once per period the latest; a vote alone writes nothing", async () => {
    const { kv, writes } = await bucket();
    let now = 1_000_000;
    const summaries = new LiveSummaries(kv, pino({ level: "silent" }), 300, () => now);
    summaries.changed("room", stage(1, 1, "A"));
    await eventually("the first write", () => writes.length === 1);
    summaries.changed("room", stage(2, 2, "A"));
    summaries.changed("room", stage(3, 3, "B"));
    summaries.changed("room", stage(4, 3, "B", 1));
    await eventually("the period's write", () => writes.length === 2);
    expect(writes[1]).toMatchObject({ listeners: 4, nowPlaying: { title: "B" }, stageVersion: 4n });
    expect(writes[0]!.updatedAt).toBeDefined();
    // Past the period, the same card with a vote more writes nothing; the next real change is written at once.
    now += 1_000;
    summaries.changed("room", stage(5, 3, "B", 2));
    summaries.changed("room", stage(6, 7, "B", 2));
    await eventually("the next change's write", () => writes.length === 3);
    expect(writes.map((w) => w!.stageVersion)).toEqual([1n, 4n, 6n]);
    summaries.close();
  });

  it("never replace a later stage version's summary (another instance's) and go with the room's stage", async () => {
    const { kv, writes } = await bucket();
    const mine = new LiveSummaries(kv, pino({ level: "silent" }), 0);
    const theirs = new LiveSummaries(kv, pino({ level: "silent" }), 0);
    theirs.changed("room", stage(9, 5, "Later"));
    await eventually("their write", () => writes.length === 1);
    mine.changed("room", stage(8, 1, "Earlier"));
    mine.changed("room", stage(10, 0));
    await eventually("the quiet room's summary", () => writes.length === 2);
    expect(writes[1]).toMatchObject({ listeners: 1, stageVersion: 10n });
    expect(writes[1]!.nowPlaying).toBeUndefined();
    await mine.removed("room");
    await eventually("the removal", () => writes.length === 3);
    expect(writes[2]).toBeNull();
    expect(await kv.get("room")).toBeNull();
  });
});
