// The live stage of one room as pure functions (issue 14): an action and the time in, the next stage (version + 1
// when anything changed) and what happened out. No I/O: the runtime (runtime.ts) loads the stage, applies an
// action, stores the result by compare-and-set and publishes the patch; on a conflict it re-reads and re-applies.
import { clone, create, equals, toJson, type JsonValue, type MessageInitShape } from "@bufbuild/protobuf";
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import type { CrateSong } from "@tt/proto/tt/playlist/v1/crate_pb";
import {
  RoomActivityKind,
  type RoomActivitySchema,
  StageListenersSchema,
  StagePlaySchema,
  StageRoomSchema,
  StageSchema,
  StageSeatSchema,
  StageVotesSchema,
  VoteSkipSchema,
  type Stage,
  type StagePlay,
  type StageRoom,
  type StageVotes,
} from "@tt/proto/tt/social/v1/stage_pb";
import { createPatch, type Operation } from "rfc6902";

/** The most listeners the stage lists in `dancefloor` (the full list is the paged ListListeners). */
export const DANCEFLOOR_CAP = 50;

/** Why a play ended (the played-song event's end reason). */
export type EndReason = "ended" | "skipped" | "moderatorSkipped" | "voteSkipped" | "left" | "removed" | "room";

/** The room settings the stage carries (StageRoom's fields). */
export type RoomSettings = Omit<StageRoom, "$typeName" | "$unknown">;

export type StageAction =
  /** The caller takes the next free seat; `canDj` is decided by the caller of the domain (roles, djType). */
  | { kind: "takeSeat"; user: string; canDj: boolean }
  /** The caller leaves their seat (their play ends when they play). */
  | { kind: "leaveSeat"; user: string }
  /** A moderator removes a DJ (authorised by the caller of the domain). */
  | { kind: "removeFromSeat"; user: string }
  /** The first seat's DJ starts a song (fetched from their queue by the runtime). */
  | { kind: "startSong"; dj: string; song: CrateSong; playId: string }
  /** The first seat's DJ has no song to play: they step down. */
  | { kind: "stepDown"; user: string }
  /** The current play reached its end (the song timer); nothing when `playId` is no longer current. */
  | { kind: "endSong"; playId: string }
  /** The DJ skips their own song. */
  | { kind: "skip"; user: string; playId?: string }
  /** A moderator skips (authorised by the caller of the domain). */
  | { kind: "moderatorSkip"; playId?: string }
  | { kind: "vote"; user: string; vote: "like" | "dislike"; playId?: string }
  | { kind: "grab"; user: string; playId?: string }
  | { kind: "setVoteSkip"; enabled: boolean }
  /** The room's settings changed (room service). */
  | { kind: "room"; room: RoomSettings }
  /**
   * Presence, reconciled from the open join streams of every instance: counts, the dancefloor (signed-in users by
   * join time), who has an open stream (seats of absent DJs are marked away, and step down after `graceMs`).
   */
  | {
      kind: "presence";
      users: number;
      guests: number;
      dancefloor: readonly string[];
      present: ReadonlySet<string>;
      graceMs: number;
    };

/** What an action did besides changing the stage (the runtime reacts: events, the next song, timers). */
export type StageEffect =
  | { kind: "songStarted"; play: StagePlay }
  | {
      kind: "songEnded";
      play: StagePlay;
      votes: StageVotes;
      reason: EndReason;
      endedAt: Date;
      /** The dislikes that skipped it when the play ended (vote-skip's threshold then). */
      threshold: number;
    }
  /** A DJ took a seat (announced to the room, issue 25). */
  | { kind: "seatTaken"; user: string }
  /** A DJ left the booth: by themselves ("left", also away past the grace or an empty queue) or removed. */
  | { kind: "seatLeft"; user: string; reason: "left" | "removed" };

export interface StageResult {
  /** The stage after the action (the same object when nothing changed). */
  stage: Stage;
  /** Whether the stage changed (and so its version went up by 1). */
  changed: boolean;
  effects: StageEffect[];
}

/** A new room's stage (version 0): nobody seated, nothing playing, vote-skip on. */
export function initialStage(room: RoomSettings): Stage {
  return create(StageSchema, {
    version: 0n,
    room: create(StageRoomSchema, room),
    seats: [],
    votes: create(StageVotesSchema, {}),
    voteSkip: create(VoteSkipSchema, {
      enabled: true,
      dislikes: 0,
      threshold: voteSkipThreshold(0),
      minListeners: VOTE_SKIP_MIN_LISTENERS,
      active: false,
    }),
    listeners: create(StageListenersSchema, {}),
    dancefloor: [],
  });
}

/**
 * The dislikes that skip the current play: max(1, ceil(log2(n + 1))), n the signed-in listeners other than the DJ
 * (1 → 1, 4 → 3, 20 → 5, 100 → 7, 2,000 → 11): a few people can skip in a small room, and a big room needs more,
 * though far fewer than a share of its listeners.
 */
export function voteSkipThreshold(voters: number): number {
  return Math.max(1, Math.ceil(Math.log2(Math.max(0, voters) + 1)));
}

/**
 * The signed-in listeners besides the DJ a room needs before a vote can skip
 * (docs/decisions/0302-vote-skip-when-the-room-can-skip-a-play.md): with fewer, one listener alone with the DJ would
 * end every song they dislike.
 */
export const VOTE_SKIP_MIN_LISTENERS = 3;

/**
 * Whether the votes skip the current play: vote-skip on, at least VOTE_SKIP_MIN_LISTENERS voters (signed-in
 * listeners other than the DJ), dislikes at the threshold and more dislikes than likes.
 */
export function voteSkips(enabled: boolean, voters: number, likes: number, dislikes: number): boolean {
  return enabled && voters >= VOTE_SKIP_MIN_LISTENERS && dislikes >= voteSkipThreshold(voters) && dislikes > likes;
}

/** The stage's proto3 JSON form (the form the patches apply to). */
/** Everyone listening to the room: signed-in listeners and guests. */
export const listenersOf = (stage: Stage) => (stage.listeners?.users ?? 0) + (stage.listeners?.guests ?? 0);

export function stageJson(stage: Stage): JsonValue {
  return toJson(StageSchema, stage);
}

/** The RFC 6902 operations from one stage's JSON form to another's. */
export function stagePatch(before: Stage, after: Stage): Operation[] {
  return createPatch(stageJson(before), stageJson(after));
}

/** A conflict with the stage as it is now (409). */
const conflict = (message: string) => new ConnectError(message, Code.Aborted);

/** Applies an action at `now`. Throws a ConnectError (4xx) for an action the stage refuses. */
export function applyAction(stage: Stage, action: StageAction, now: Date): StageResult {
  const next = clone(StageSchema, stage);
  const effects: StageEffect[] = [];
  const s = next;
  s.votes ??= create(StageVotesSchema, {});
  s.voteSkip ??= create(VoteSkipSchema, { enabled: true });
  s.listeners ??= create(StageListenersSchema, {});
  s.room ??= create(StageRoomSchema, {});

  const endPlay = (reason: EndReason) => {
    const play = s.play;
    if (!play) return;
    effects.push({
      kind: "songEnded",
      play: clone(StagePlaySchema, play),
      votes: clone(StageVotesSchema, s.votes!),
      reason,
      endedAt: now,
      threshold: s.voteSkip!.threshold,
    });
    s.play = undefined;
    s.votes = create(StageVotesSchema, {});
    s.voteSkip!.dislikes = 0;
    // The DJ who played goes to the back of the booth (when still seated in the first seat).
    const first = s.seats[0];
    if (first && first.userUuid === play.djUuid && s.seats.length > 1) {
      s.seats.push(s.seats.shift()!);
    }
  };
  const removeSeat = (user: string, reason: EndReason) => {
    const index = s.seats.findIndex((seat) => seat.userUuid === user);
    if (index < 0) return false;
    if (s.play?.djUuid === user) endPlay(reason);
    s.seats = s.seats.filter((seat) => seat.userUuid !== user);
    effects.push({ kind: "seatLeft", user, reason: reason === "removed" ? "removed" : "left" });
    return true;
  };
  const currentPlay = (playId: string | undefined) => {
    if (!s.play) throw conflict("Nothing is playing");
    if (playId && playId !== s.play.playId) throw conflict("This play has ended");
    return s.play;
  };
  const refreshThreshold = () => {
    const voters = Math.max(0, s.listeners!.users - (s.play ? 1 : 0));
    const vs = s.voteSkip!;
    vs.threshold = voteSkipThreshold(voters);
    vs.minListeners = VOTE_SKIP_MIN_LISTENERS;
    vs.active = vs.enabled && voters >= VOTE_SKIP_MIN_LISTENERS;
    if (s.play && voteSkips(vs.enabled, voters, s.votes!.likes, s.votes!.dislikes)) endPlay("voteSkipped");
  };

  switch (action.kind) {
    case "takeSeat": {
      if (!action.canDj) throw new ConnectError("You cannot DJ in this room", Code.PermissionDenied);
      if (s.seats.some((seat) => seat.userUuid === action.user))
        throw new ConnectError("Already in a DJ seat", Code.AlreadyExists);
      if (s.seats.length >= seatCount(s.room)) throw conflict("No free DJ seat");
      s.seats.push(create(StageSeatSchema, { userUuid: action.user, since: timestampFromDate(now) }));
      effects.push({ kind: "seatTaken", user: action.user });
      break;
    }
    case "leaveSeat":
      if (!removeSeat(action.user, "left")) throw new ConnectError("Not in a DJ seat", Code.NotFound);
      break;
    case "removeFromSeat":
      if (!removeSeat(action.user, "removed")) throw new ConnectError("Not in a DJ seat", Code.NotFound);
      break;
    case "stepDown":
      removeSeat(action.user, "left");
      break;
    case "startSong": {
      // Only the first seat's DJ starts, and only into a silent booth (a stale start is dropped).
      if (s.play || s.seats[0]?.userUuid !== action.dj) break;
      const duration = Math.max(0, action.song.duration);
      s.play = create(StagePlaySchema, {
        playId: action.playId,
        song: action.song,
        djUuid: action.dj,
        startedAt: timestampFromDate(now),
        duration,
      });
      s.votes = create(StageVotesSchema, {});
      s.voteSkip!.dislikes = 0;
      refreshThreshold();
      effects.push({ kind: "songStarted", play: clone(StagePlaySchema, s.play) });
      break;
    }
    case "endSong":
      if (s.play?.playId === action.playId) endPlay("ended");
      break;
    case "skip": {
      const play = currentPlay(action.playId);
      if (play.djUuid !== action.user) {
        throw new ConnectError("Only the DJ can skip their song", Code.PermissionDenied);
      }
      endPlay("skipped");
      break;
    }
    case "moderatorSkip":
      currentPlay(action.playId);
      endPlay("moderatorSkipped");
      break;
    case "vote": {
      const play = currentPlay(action.playId);
      if (play.djUuid === action.user) {
        throw new ConnectError("You cannot vote on your own song", Code.PermissionDenied);
      }
      const votes = s.votes!;
      votes.byUser[action.user] = action.vote;
      countVotes(votes);
      s.voteSkip!.dislikes = votes.dislikes;
      refreshThreshold();
      break;
    }
    case "grab": {
      const play = currentPlay(action.playId);
      if (play.djUuid === action.user) {
        throw new ConnectError("You cannot grab your own song", Code.PermissionDenied);
      }
      s.votes!.grabbedBy[action.user] = true;
      countVotes(s.votes!);
      break;
    }
    case "setVoteSkip":
      s.voteSkip!.enabled = action.enabled;
      refreshThreshold();
      break;
    case "room": {
      s.room = create(StageRoomSchema, action.room);
      // Fewer seats: the last DJs step down (never the one who plays, in the first seat).
      const seats = seatCount(s.room);
      while (s.seats.length > seats) effects.push({ kind: "seatLeft", user: s.seats.pop()!.userUuid, reason: "left" });
      if (s.play && s.seats[0]?.userUuid !== s.play.djUuid) endPlay("room");
      break;
    }
    case "presence": {
      s.listeners!.users = action.users;
      s.listeners!.guests = action.guests;
      s.dancefloor = action.dancefloor.slice(0, DANCEFLOOR_CAP);
      for (const seat of [...s.seats]) {
        if (action.present.has(seat.userUuid)) {
          seat.awaySince = undefined;
        } else if (!seat.awaySince) {
          seat.awaySince = timestampFromDate(now);
        } else if (now.getTime() - timestampDate(seat.awaySince).getTime() >= action.graceMs) {
          removeSeat(seat.userUuid, "left");
        }
      }
      refreshThreshold();
      break;
    }
  }

  if (equals(StageSchema, stage, next)) return { stage, changed: false, effects: [] };
  next.version = stage.version + 1n;
  return { stage: next, changed: true, effects };
}

/** The number of seats (number_of_djs, 1–10; 1 when unset). */
export function seatCount(room: StageRoom | undefined): number {
  const n = room?.numberOfDjs ?? 0;
  return Math.min(10, Math.max(1, n || 1));
}

function countVotes(votes: StageVotes): void {
  const values = Object.values(votes.byUser);
  votes.likes = values.filter((v) => v === "like").length;
  votes.dislikes = values.filter((v) => v === "dislike").length;
  votes.grabs = Object.keys(votes.grabbedBy).length;
}

/**
 * canDj (002 §6): never with djDisabled (nor kicked or banned); with djType INVITE_ONLY the owner, co-owners,
 * moderators, dj grants and the platform's moderators; with PRO_PLAN_OWNER only the owner and dj grants (the owner's
 * pro plan pays for the seats; see docs/decisions/0193-candj-and-pro-plan-owner.md); with EVERYONE any signed-in user
 * or bot.
 */
export function canDj(djType: string, roles: readonly string[]): boolean {
  const has = (role: string) => roles.includes(role);
  if (has("djDisabled") || has("banned") || has("kicked")) return false;
  if (has("superUser")) return true;
  switch (djType) {
    case "INVITE_ONLY":
      return ["owner", "coOwner", "moderator", "dj", "globalModerator", "staff"].some(has);
    case "PRO_PLAN_OWNER":
      return ["owner", "dj"].some(has);
    default:
      return true;
  }
}

/** Whether the roles may moderate the stage (skip, remove a DJ, vote-skip switch). */
export function canModerate(roles: readonly string[]): boolean {
  return ["owner", "coOwner", "moderator", "globalModerator", "staff", "superUser"].some((r) => roles.includes(r));
}

/** The ends of a play the room is told about (a natural end, or the DJ leaving, is said otherwise or not at all). */
const SKIP_ACTIVITIES: Partial<Record<EndReason, RoomActivityKind>> = {
  voteSkipped: RoomActivityKind.VOTE_SKIPPED,
  moderatorSkipped: RoomActivityKind.MODERATOR_SKIPPED,
  skipped: RoomActivityKind.DJ_SKIPPED,
};

/** What of a change the room is told (issue 25): every end that is not a natural one, and the booth's comings and goings. */
export function roomActivities(effects: StageEffect[], by: string): MessageInitShape<typeof RoomActivitySchema>[] {
  const out: MessageInitShape<typeof RoomActivitySchema>[] = [];
  for (const effect of effects) {
    if (effect.kind === "seatTaken") {
      out.push({ kind: RoomActivityKind.SEAT_TAKEN, userUuid: effect.user });
    } else if (effect.kind === "seatLeft") {
      out.push(
        effect.reason === "removed"
          ? { kind: RoomActivityKind.REMOVED_FROM_SEAT, userUuid: effect.user, byUuid: by }
          : { kind: RoomActivityKind.SEAT_LEFT, userUuid: effect.user },
      );
    } else if (effect.kind === "songEnded") {
      const kind = SKIP_ACTIVITIES[effect.reason];
      if (kind === undefined) continue;
      out.push({
        kind,
        userUuid: effect.play.djUuid,
        byUuid: effect.reason === "moderatorSkipped" ? by : "",
        likes: effect.votes.likes,
        dislikes: effect.votes.dislikes,
        threshold: effect.threshold,
        songTitle: effect.play.song?.trackName ?? "",
      });
    }
  }
  return out;
}
