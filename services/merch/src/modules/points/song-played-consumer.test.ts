// Issue 14: the live stage's SongPlayed gives the DJ points from the play's votes, once per play. The events are
// written here through this service's own outbox (the relay publishes them on their subject, tt.social.song.played),
// so the test needs no social service: real NATS, real PostgreSQL.
import { eventually } from "@tt/kit/testing";
import { randomUUID } from "node:crypto";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { publishEvent } from "@tt/kit";
import { SongPlayedSchema } from "@tt/proto/tt/social/v1/events_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMerchHarness, type MerchHarness } from "../../testing/merch-harness.ts";
import { pointsForPlay } from "./song-played-consumer.ts";

let h: MerchHarness;
beforeAll(async () => {
  h = await createMerchHarness();
});
afterAll(() => h?.close());

async function played(event: MessageInitShape<typeof SongPlayedSchema>) {
  await h.orm.em.fork().transactional(async (em) => {
    publishEvent(em, SongPlayedSchema, event);
  });
}

async function lifetimeOf(user: string): Promise<number> {
  const rows = await h.orm.em
    .fork()
    .execute<{ balance: number }[]>(`select "balance" from "merch"."lifetime_ranking_status" where "user_uuid" = ?`, [
      user,
    ]);
  return rows[0]?.balance ?? 0;
}

describe("DJ points for a played song", () => {
  it("the formula: 1 for the play, +1 a like, +2 a grab, −1 a dislike, never below 0", () => {
    expect(pointsForPlay({ likes: 3, grabs: 1, dislikes: 1, playedSeconds: 200, endReason: "ended" })).toBe(5);
    expect(pointsForPlay({ likes: 0, grabs: 0, dislikes: 0, playedSeconds: 12, endReason: "ended" })).toBe(1);
    expect(pointsForPlay({ likes: 0, grabs: 0, dislikes: 0, playedSeconds: 12, endReason: "dj-skip" })).toBe(0);
    expect(pointsForPlay({ likes: 2, grabs: 0, dislikes: 0, playedSeconds: 45, endReason: "dj-skip" })).toBe(3);
    expect(pointsForPlay({ likes: 1, grabs: 0, dislikes: 9, playedSeconds: 90, endReason: "vote-skip" })).toBe(0);
    expect(pointsForPlay({ likes: -5, grabs: Number.NaN, dislikes: 0, playedSeconds: 0, endReason: "" })).toBe(0);
  });

  it("awards the DJ once per play, whatever the number of events announcing it", async () => {
    const dj = randomUUID();
    const base = {
      roomUuid: randomUUID(),
      roomSlug: "club",
      djUuid: dj,
      song: { title: "Song", artist: "Artist", duration: 200 },
      startedAt: timestampFromDate(new Date(Date.now() - 200_000)),
      endedAt: timestampFromDate(new Date()),
      playedSeconds: 200,
      endReason: "ended",
    };
    const first = { ...base, playId: randomUUID(), likes: 3, grabs: 1, dislikes: 1 }; // 1 + 3 + 2 − 1 = 5
    await played(first);
    await played(first); // the same play again (another event id)
    await played({ ...base, playId: randomUUID(), dislikes: 4 }); // 0 points: nothing awarded
    await played({ ...base, playId: randomUUID(), djUuid: "not-a-uuid", likes: 9 }); // ignored
    expect(
      await eventually(
        "the DJ's lifetime points",
        () => lifetimeOf(dj),
        (n) => n === 5,
      ),
    ).toBe(5);
    // A later play lands: everything before it was handled, and the repeated play counted once.
    await played({ ...base, playId: randomUUID(), likes: 1 }); // 2
    expect(
      await eventually(
        "the DJ's lifetime points",
        () => lifetimeOf(dj),
        (n) => n === 7,
      ),
    ).toBe(7);
    const awards = await h.orm.em
      .fork()
      .execute<{ event_key: string; points: number }[]>(
        `select "event_key", "points" from "merch"."points_award" where "user_uuid" = ? order by "points" desc`,
        [dj],
      );
    expect(awards).toEqual([
      { event_key: `song-played:${first.playId}`, points: 5 },
      expect.objectContaining({ points: 2 }),
    ]);
  });
});
