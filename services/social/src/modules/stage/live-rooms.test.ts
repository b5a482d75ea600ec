import { create } from "@bufbuild/protobuf";
import { StageSchema, type Stage } from "@tt/proto/tt/social/v1/stage_pb";
import { describe, expect, it } from "vitest";
import { cachedScan, rankLiveRooms } from "./live-rooms.ts";

const stage = (name: string, users: number, guests: number, playing: boolean, type = "PUBLIC"): Stage =>
  create(StageSchema, {
    room: { uuid: name, slug: name.toLowerCase(), name, type },
    listeners: { users, guests },
    seats: playing ? [{ userUuid: "dj" }] : [],
    ...(playing ? { play: { playId: "p", djUuid: "dj", song: { trackName: "Song" } } } : {}),
  });

describe("the live rooms", () => {
  it("ranks by listeners (guests count), then playing, then name; leaves out private and empty rooms", () => {
    const ranked = rankLiveRooms(
      [
        stage("Quiet", 0, 0, false),
        stage("Bravo", 1, 0, false),
        stage("Alpha", 1, 0, false),
        stage("Playing", 1, 0, true),
        stage("Secret", 9, 0, true, "PRIVATE"),
        stage("Busy", 1, 3, false),
        stage("Alone", 0, 0, true),
      ],
      10,
    );
    expect(ranked.map((r) => r.room!.name)).toEqual(["Busy", "Playing", "Alpha", "Bravo", "Alone"]);
    expect(ranked[1]).toMatchObject({ djUuids: ["dj"], play: { song: { trackName: "Song" } } });
    expect(rankLiveRooms([stage("A", 1, 0, false), stage("B", 2, 0, false)], 1).map((r) => r.room!.name)).toEqual([
      "B",
    ]);
  });

  it("scans once per period, and again at once after a failed scan", async () => {
    let now = 0;
    let scans = 0;
    let fail = false;
    const scan = cachedScan(
      async () => {
        scans++;
        if (fail) throw new Error("bus down");
        return [];
      },
      5_000,
      () => now,
    );
    await Promise.all([scan(), scan()]);
    now = 4_999;
    await scan();
    expect(scans).toBe(1);
    now = 5_000;
    fail = true;
    await expect(scan()).rejects.toThrow("bus down");
    fail = false;
    await scan();
    expect(scans).toBe(3);
  });
});
