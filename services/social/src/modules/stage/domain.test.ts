// The stage's invariants under random sequences of actions (fast-check), and the rules one by one.
import { create } from "@bufbuild/protobuf";
import { ConnectError } from "@connectrpc/connect";
import { CrateSongSchema } from "@tt/proto/tt/playlist/v1/crate_pb";
import { RoomActivityKind, type Stage } from "@tt/proto/tt/social/v1/stage_pb";
import fc from "fast-check";
import { applyPatch } from "rfc6902";
import { describe, expect, it } from "vitest";
import {
  applyAction,
  canDj,
  DANCEFLOOR_CAP,
  initialStage,
  roomActivities,
  seatCount,
  stageJson,
  stagePatch,
  VOTE_SKIP_MIN_LISTENERS,
  voteSkips,
  voteSkipThreshold,
  type StageAction,
} from "./domain.ts";

const USERS = ["u0", "u1", "u2", "u3", "u4", "u5"].map((u, i) => `00000000-0000-4000-8000-00000000000${i}`);
const room = (numberOfDjs: number) => ({
  uuid: "11111111-1111-4111-8111-111111111111",
  slug: "room",
  name: "Room",
  ownerUuid: USERS[0]!,
  type: "PUBLIC",
  djType: "EVERYONE",
  numberOfDjs,
  isLive: true,
  liveAudio: false,
  design: "CLUB",
  posterUrl: "",
});
const song = (n: number) =>
  create(CrateSongSchema, { crateSongUuid: `song-${n}`, songId: `s${n}`, trackName: `Song ${n}`, duration: 60 + n });

const user = fc.constantFrom(...USERS);
const maybePlay = fc.option(fc.constantFrom("current", "stale"), { nil: undefined });
// Actions refer to the current play by "current"/"stale"; resolved against the stage when applied.
type Abstract = StageAction | { kind: "endCurrent" } | { kind: "startFirst"; n: number };
const action: fc.Arbitrary<Abstract> = fc.oneof(
  user.map((u) => ({ kind: "takeSeat", user: u, canDj: true }) as const),
  user.map((u) => ({ kind: "takeSeat", user: u, canDj: false }) as const),
  user.map((u) => ({ kind: "leaveSeat", user: u }) as const),
  user.map((u) => ({ kind: "removeFromSeat", user: u }) as const),
  user.map((u) => ({ kind: "stepDown", user: u }) as const),
  fc.nat(20).map((n) => ({ kind: "startFirst", n }) as const),
  fc.constant({ kind: "endCurrent" } as const),
  fc.tuple(user, maybePlay).map(([u, p]) => ({ kind: "skip", user: u, playId: p }) as const),
  maybePlay.map((p) => ({ kind: "moderatorSkip", playId: p }) as const),
  fc
    .tuple(user, fc.constantFrom("like", "dislike") as fc.Arbitrary<"like" | "dislike">, maybePlay)
    .map(([u, vote, p]) => ({ kind: "vote", user: u, vote, playId: p }) as const),
  fc.tuple(user, maybePlay).map(([u, p]) => ({ kind: "grab", user: u, playId: p }) as const),
  fc.boolean().map((enabled) => ({ kind: "setVoteSkip", enabled }) as const),
  fc.integer({ min: 1, max: 10 }).map((n) => ({ kind: "room", room: room(n) }) as const),
  fc.tuple(fc.subarray(USERS), fc.nat(5000), fc.nat(3), fc.nat(60_000)).map(([present, extra, guests, graceMs]) => ({
    kind: "presence" as const,
    users: present.length + extra,
    guests,
    dancefloor: present,
    present: new Set(present),
    graceMs,
  })),
);

function resolve(stage: Stage, a: Abstract, step: number): StageAction {
  const playId = (p: unknown) => (p === "current" ? stage.play?.playId : p === "stale" ? "stale-play" : undefined);
  switch (a.kind) {
    case "endCurrent":
      return { kind: "endSong", playId: stage.play?.playId ?? "none" };
    case "startFirst":
      return { kind: "startSong", dj: stage.seats[0]?.userUuid ?? USERS[0]!, song: song(a.n), playId: `play-${step}` };
    case "skip":
    case "moderatorSkip":
    case "vote":
    case "grab":
      return { ...a, playId: playId(a.playId) };
    default:
      return a;
  }
}

describe("stage domain (property tests)", () => {
  it("random sequences keep the invariants, and the patches rebuild the final state", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 }), fc.array(action, { maxLength: 80 }), (djs, actions) => {
        const first = initialStage(room(djs));
        let stage = first;
        let now = Date.UTC(2026, 10, 24, 20);
        const json = stageJson(first) as object;
        for (const [step, abstract] of actions.entries()) {
          now += 1000;
          const a = resolve(stage, abstract, step);
          let result;
          try {
            result = applyAction(stage, a, new Date(now));
          } catch (err) {
            expect(err).toBeInstanceOf(ConnectError);
            continue;
          }
          if (result.changed) {
            expect(result.stage.version).toBe(stage.version + 1n);
            const errors = applyPatch(json, stagePatch(stage, result.stage));
            expect(errors.every((e) => e === null)).toBe(true);
          } else {
            expect(result.stage).toBe(stage);
          }
          stage = result.stage;
          // Seats never exceed numberOfDjs, nobody sits twice, the current DJ holds the first seat.
          expect(stage.seats.length).toBeLessThanOrEqual(seatCount(stage.room));
          expect(new Set(stage.seats.map((s) => s.userUuid)).size).toBe(stage.seats.length);
          if (stage.play) expect(stage.seats[0]?.userUuid).toBe(stage.play.djUuid);
          expect(stage.dancefloor.length).toBeLessThanOrEqual(DANCEFLOOR_CAP);
          // A play that the votes would skip does not go on.
          if (stage.play && stage.voteSkip!.active) {
            const { dislikes, threshold } = stage.voteSkip!;
            expect(dislikes >= threshold && dislikes > stage.votes!.likes).toBe(false);
          }
          if (stage.play) expect(stage.votes!.byUser[stage.play.djUuid]).toBeUndefined();
        }
        expect(json).toEqual(stageJson(stage));
      }),
      { numRuns: 300 },
    );
  });
});

describe("stage domain rules", () => {
  const t = new Date("2026-11-24T20:00:00Z");
  const [a, b, c] = USERS as [string, string, string];
  const seated = () => {
    let s = initialStage(room(2));
    s = applyAction(s, { kind: "takeSeat", user: a, canDj: true }, t).stage;
    s = applyAction(s, { kind: "takeSeat", user: b, canDj: true }, t).stage;
    return applyAction(s, { kind: "startSong", dj: a, song: song(1), playId: "p1" }, t).stage;
  };

  it("refuses a third DJ in a two-seat room and a DJ who cannot DJ", () => {
    const s = seated();
    expect(() => applyAction(s, { kind: "takeSeat", user: c, canDj: true }, t)).toThrow("No free DJ seat");
    expect(() => applyAction(s, { kind: "takeSeat", user: c, canDj: false }, t)).toThrow("You cannot DJ");
  });

  it("rotates: when the song ends the next DJ is first and the first goes to the back", () => {
    const r = applyAction(seated(), { kind: "endSong", playId: "p1" }, t);
    expect(r.stage.play).toBeUndefined();
    expect(r.stage.seats.map((s) => s.userUuid)).toEqual([b, a]);
    expect(r.effects[0]).toMatchObject({ kind: "songEnded", reason: "ended" });
  });

  it("votes once per listener per play, changeable, never on your own play", () => {
    let s = seated();
    s = applyAction(s, { kind: "vote", user: b, vote: "like" }, t).stage;
    s = applyAction(s, { kind: "vote", user: b, vote: "like" }, t).stage;
    expect(s.votes!.likes).toBe(1);
    s = applyAction(
      s,
      { kind: "presence", users: 30, guests: 0, dancefloor: [], present: new Set([a, b]), graceMs: 1 },
      t,
    ).stage;
    s = applyAction(s, { kind: "vote", user: b, vote: "dislike" }, t).stage;
    expect([s.votes!.likes, s.votes!.dislikes]).toEqual([0, 1]);
    expect(() => applyAction(s, { kind: "vote", user: a, vote: "like" }, t)).toThrow("own song");
    expect(() => applyAction(s, { kind: "vote", user: c, vote: "like", playId: "old" }, t)).toThrow("has ended");
  });

  it("vote-skip: the threshold grows with log2 of the listeners and a moderator can turn it off", () => {
    expect([1, 4, 20, 100, 2000].map(voteSkipThreshold)).toEqual([1, 3, 5, 7, 11]);
    // The DJ and three listeners (threshold 2).
    const listening: StageAction = {
      kind: "presence",
      users: 4,
      guests: 0,
      dancefloor: [],
      present: new Set([a, b]),
      graceMs: 1,
    };
    let s = applyAction(seated(), listening, t).stage;
    expect(s.voteSkip).toMatchObject({ threshold: 2, minListeners: VOTE_SKIP_MIN_LISTENERS, active: true });
    s = applyAction(s, { kind: "setVoteSkip", enabled: false }, t).stage;
    expect(s.voteSkip!.active).toBe(false);
    s = applyAction(s, { kind: "vote", user: b, vote: "dislike" }, t).stage;
    s = applyAction(s, { kind: "vote", user: c, vote: "dislike" }, t).stage;
    expect(s.play?.playId).toBe("p1");
    const r = applyAction(s, { kind: "setVoteSkip", enabled: true }, t);
    expect(r.stage.play).toBeUndefined();
    expect(r.effects[0]).toMatchObject({ kind: "songEnded", reason: "voteSkipped", threshold: 2 });
    expect(r.effects[0]).toMatchObject({ votes: { likes: 0, dislikes: 2 } });
  });

  // Issue 25: a small room. voters = signed-in listeners besides the DJ.
  it.each([
    { voters: 0, likes: 0, dislikes: 0, skips: false, why: "nobody listens" },
    { voters: 1, likes: 0, dislikes: 1, skips: false, why: "a lone listener with the DJ" },
    { voters: 2, likes: 0, dislikes: 2, skips: false, why: "two listeners, both dislike" },
    { voters: 3, likes: 0, dislikes: 1, skips: false, why: "three listeners, one dislike (threshold 2)" },
    { voters: 3, likes: 0, dislikes: 2, skips: true, why: "three listeners, two dislikes" },
    { voters: 3, likes: 1, dislikes: 2, skips: true, why: "two dislikes outnumber one like" },
    { voters: 4, likes: 2, dislikes: 2, skips: false, why: "as many likes as dislikes" },
    { voters: 4, likes: 1, dislikes: 3, skips: true, why: "four listeners, three dislikes (threshold 3)" },
    { voters: 20, likes: 10, dislikes: 5, skips: false, why: "threshold reached but the likes win" },
    { voters: 20, likes: 4, dislikes: 5, skips: true, why: "twenty listeners, five dislikes" },
    { voters: 2000, likes: 0, dislikes: 10, skips: false, why: "a big room below its threshold of 11" },
    { voters: 2000, likes: 0, dislikes: 11, skips: true, why: "a big room at its threshold" },
  ])("voteSkips: $why → $skips", ({ voters, likes, dislikes, skips }) => {
    expect(voteSkips(true, voters, likes, dislikes)).toBe(skips);
    expect(voteSkips(false, voters, likes, dislikes)).toBe(false);
  });

  it("a lone listener's dislike does not end the DJ's song, and the stage says vote-skip is not active", () => {
    let s = applyAction(
      seated(),
      { kind: "presence", users: 2, guests: 0, dancefloor: [b], present: new Set([a, b]), graceMs: 1 },
      t,
    ).stage;
    expect(s.voteSkip).toMatchObject({ enabled: true, active: false, threshold: 1 });
    s = applyAction(s, { kind: "vote", user: b, vote: "dislike" }, t).stage;
    expect(s.play?.playId).toBe("p1");
    expect(s.voteSkip!.dislikes).toBe(1);
  });

  it("tells the room every end that is not a natural one, and the booth's comings and goings", () => {
    const mod = USERS[5]!;
    let s = applyAction(
      seated(),
      { kind: "presence", users: 4, guests: 0, dancefloor: [], present: new Set([a, b]), graceMs: 1 },
      t,
    ).stage;
    s = applyAction(s, { kind: "vote", user: c, vote: "dislike" }, t).stage;
    const skipped = applyAction(s, { kind: "vote", user: b, vote: "dislike" }, t);
    expect(roomActivities(skipped.effects, "")).toEqual([
      {
        kind: RoomActivityKind.VOTE_SKIPPED,
        userUuid: a,
        byUuid: "",
        likes: 0,
        dislikes: 2,
        threshold: 2,
        songTitle: "Song 1",
      },
    ]);
    const kinds = (action: StageAction, by = "") =>
      roomActivities(applyAction(seated(), action, t).effects, by).map((x) => [x.kind, x.userUuid, x.byUuid ?? ""]);
    expect(kinds({ kind: "moderatorSkip" }, mod)).toEqual([[RoomActivityKind.MODERATOR_SKIPPED, a, mod]]);
    expect(kinds({ kind: "skip", user: a })).toEqual([[RoomActivityKind.DJ_SKIPPED, a, ""]]);
    expect(kinds({ kind: "endSong", playId: "p1" })).toEqual([]);
    expect(kinds({ kind: "leaveSeat", user: a })).toEqual([[RoomActivityKind.SEAT_LEFT, a, ""]]);
    expect(kinds({ kind: "removeFromSeat", user: b }, mod)).toEqual([[RoomActivityKind.REMOVED_FROM_SEAT, b, mod]]);
    expect(
      roomActivities(applyAction(initialStage(room(2)), { kind: "takeSeat", user: c, canDj: true }, t).effects, ""),
    ).toEqual([{ kind: RoomActivityKind.SEAT_TAKEN, userUuid: c }]);
  });

  it("announces the booth's comings and goings as effects", () => {
    let r = applyAction(initialStage(room(2)), { kind: "takeSeat", user: a, canDj: true }, t);
    expect(r.effects).toEqual([{ kind: "seatTaken", user: a }]);
    r = applyAction(seated(), { kind: "removeFromSeat", user: a }, t);
    expect(r.effects.map((e) => e.kind)).toEqual(["songEnded", "seatLeft"]);
    expect(r.effects[1]).toEqual({ kind: "seatLeft", user: a, reason: "removed" });
    r = applyAction(seated(), { kind: "leaveSeat", user: b }, t);
    expect(r.effects).toEqual([{ kind: "seatLeft", user: b, reason: "left" }]);
  });

  it("a DJ without a stream keeps the seat for the grace period, then steps down", () => {
    const presence = (present: string[]) =>
      ({
        kind: "presence",
        users: present.length,
        guests: 0,
        dancefloor: present,
        present: new Set(present),
        graceMs: 30_000,
      }) as const;
    let s = applyAction(seated(), presence([b]), t).stage;
    expect(s.seats[0]!.awaySince).toBeDefined();
    s = applyAction(s, presence([b]), new Date(t.getTime() + 29_000)).stage;
    expect(s.seats.map((x) => x.userUuid)).toEqual([a, b]);
    s = applyAction(s, presence([b]), new Date(t.getTime() + 30_000)).stage;
    expect(s.seats.map((x) => x.userUuid)).toEqual([b]);
    expect(s.play).toBeUndefined();
  });

  it("canDj follows djType and djDisabled", () => {
    expect(canDj("EVERYONE", ["user"])).toBe(true);
    expect(canDj("EVERYONE", ["user", "djDisabled"])).toBe(false);
    expect(canDj("INVITE_ONLY", ["user"])).toBe(false);
    expect(canDj("INVITE_ONLY", ["user", "dj"])).toBe(true);
    expect(canDj("INVITE_ONLY", ["moderator"])).toBe(true);
    expect(canDj("PRO_PLAN_OWNER", ["moderator"])).toBe(false);
    expect(canDj("PRO_PLAN_OWNER", ["owner"])).toBe(true);
  });
});
