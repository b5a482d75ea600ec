// StageService: the join stream and the stage's actions (issue 14). Guests listen and read; every action needs a
// signed-in user or a bot. Admission (banned, kicked, private rooms and their guest password) and roles come from the
// room service (RoomService.AdmitToStage, the rules of JoinRoom): a join asks afresh; actions, and reads of a
// private room, reuse a recent answer or the caller's open join stream (runtime.admit).
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type HandlerContext, type ServiceImpl } from "@connectrpc/connect";
import { callIdentity, checkLimit, checkUuid, directStream } from "@tt/kit";
import type { StageService } from "@tt/proto/tt/social/v1/stage_service_pb";
import type { SocialContext } from "../context.ts";
import { canDj, canModerate } from "../modules/stage/domain.ts";
import { cachedScan, isListedLive, liveRoomOf, rankLiveRooms } from "../modules/stage/live-rooms.ts";

const LISTENERS_PAGE = 50;
const LISTENERS_MAX = 200;
/** The most rooms ListUserRooms answers (a person is rarely in more than a few at once). */
const USER_ROOMS_MAX = 20;
const LIVE_ROOMS_DEFAULT = 12;
const LIVE_ROOMS_MAX = 50;
const LIVE_ROOMS_ASKED_MAX = 100;

/** The signed-in caller (user or bot); guests may not act on the stage. */
function actor(ctx: HandlerContext): string {
  const identity = callIdentity(ctx);
  if (identity.tokenType === "guest") {
    throw new ConnectError("Guests cannot do this, sign up to take part", Code.PermissionDenied);
  }
  return identity.subject.toLowerCase();
}

/** The live stage's RPCs. */
export function stageRoutes(svc: SocialContext): ServiceImpl<typeof StageService> {
  const runtime = svc.stage;
  const room = (ref: string, ctx: HandlerContext) => runtime.resolveRoom(ref, ctx.signal);
  const allStages = cachedScan(() => runtime.store.all());

  const moderator = async (roomUuid: string, user: string, ctx: HandlerContext) => {
    if (!canModerate(await runtime.rolesOf(roomUuid, user, ctx.signal))) {
      throw new ConnectError("Insufficient room role", Code.PermissionDenied);
    }
  };

  /** The caller as the admission knows it: a signed-in user (users, bots) or a guest (their token subject). */
  const caller = (ctx: HandlerContext) => {
    const identity = callIdentity(ctx);
    return identity.tokenType === "guest" ? { guest: identity.subject } : { user: identity.subject.toLowerCase() };
  };

  /** The room, once the acting user is admitted to its stage (403 with the room service's reason otherwise). */
  const admitted = async (ref: string, user: string, ctx: HandlerContext) => {
    const r = await room(ref, ctx);
    return { r, roles: await runtime.admit(r, { user }, { signal: ctx.signal }) };
  };

  /** The room, for a read: a private room's stage only to those admitted to it. */
  const readable = async (ref: string, ctx: HandlerContext) => {
    const r = await room(ref, ctx);
    if (r.settings.type === "PRIVATE") await runtime.admit(r, caller(ctx), { signal: ctx.signal });
    return r;
  };

  return {
    async *join(req, ctx) {
      const r = await room(req.room, ctx);
      const who = caller(ctx);
      // Refusals (403 with the reason, 503 for a private room the room service cannot vouch for) come before any
      // message of the stream.
      await runtime.admit(r, who, { guestPassword: req.guestPassword, fresh: true, signal: ctx.signal });
      yield* runtime.join(r, who, ctx.signal, directStream(ctx));
    },

    async getStage(req, ctx) {
      return { stage: await runtime.stageOf(await readable(req.room, ctx)) };
    },

    async takeSeat(req, ctx) {
      const user = actor(ctx);
      const { r, roles } = await admitted(req.room, user, ctx);
      // Roles unknown (the room service could not be reached for this public room): no seat without them.
      if (!roles) throw new ConnectError("The room service cannot be reached, try again shortly", Code.Unavailable);
      const stage = await runtime.act(r, (s) => ({
        kind: "takeSeat",
        user,
        canDj: canDj(s.room?.djType ?? "", roles),
      }));
      return { stage };
    },

    async leaveSeat(req, ctx) {
      const user = actor(ctx);
      return { stage: await runtime.act(await room(req.room, ctx), { kind: "leaveSeat", user }) };
    },

    async removeFromSeat(req, ctx) {
      const me = actor(ctx);
      const r = await room(req.room, ctx);
      await moderator(r.uuid, me, ctx);
      return { stage: await runtime.act(r, { kind: "removeFromSeat", user: req.user.toLowerCase() }, { by: me }) };
    },

    async skipSong(req, ctx) {
      const user = actor(ctx);
      const { r } = await admitted(req.room, user, ctx);
      return { stage: await runtime.act(r, { kind: "skip", user, playId: req.playId || undefined }) };
    },

    async moderatorSkip(req, ctx) {
      const me = actor(ctx);
      const r = await room(req.room, ctx);
      await moderator(r.uuid, me, ctx);
      return { stage: await runtime.act(r, { kind: "moderatorSkip", playId: req.playId || undefined }, { by: me }) };
    },

    async like(req, ctx) {
      const user = actor(ctx);
      const { r } = await admitted(req.room, user, ctx);
      const stage = await runtime.act(r, { kind: "vote", user, vote: "like", playId: req.playId || undefined });
      // A like also stars the song in the liker's likes crate (tt-stars).
      const songId = stage.play?.song?.songId;
      if (songId) {
        await svc.crates
          .serviceAddUserCrateSong({ userUuid: user, songId, special: "likes" }, { signal: ctx.signal })
          .catch((err: unknown) => svc.logger.warn({ err, user, songId }, "could not star a liked song"));
      }
      return { stage };
    },

    async dislike(req, ctx) {
      const user = actor(ctx);
      const { r } = await admitted(req.room, user, ctx);
      return { stage: await runtime.act(r, { kind: "vote", user, vote: "dislike", playId: req.playId || undefined }) };
    },

    async grab(req, ctx) {
      const user = actor(ctx);
      const { r } = await admitted(req.room, user, ctx);
      const play = (await runtime.stageOf(r)).play;
      if (!play) throw new ConnectError("Nothing is playing", Code.Aborted);
      if (req.playId && req.playId !== play.playId) throw new ConnectError("This play has ended", Code.Aborted);
      if (play.djUuid === user) throw new ConnectError("You cannot grab your own song", Code.PermissionDenied);
      // The copy first: a crate that is not the caller's refuses the grab before it is counted.
      if (play.song?.songId) {
        await svc.crates.serviceAddUserCrateSong(
          { userUuid: user, songId: play.song.songId, crateUuid: req.crateUuid, special: req.crateUuid ? "" : "queue" },
          { signal: ctx.signal },
        );
      }
      return { stage: await runtime.act(r, { kind: "grab", user, playId: play.playId }) };
    },

    async setVoteSkip(req, ctx) {
      const me = actor(ctx);
      const r = await room(req.room, ctx);
      await moderator(r.uuid, me, ctx);
      return { stage: await runtime.act(r, { kind: "setVoteSkip", enabled: req.enabled }) };
    },

    async listListeners(req, ctx) {
      const limit = checkLimit(req.limit, LISTENERS_PAGE, LISTENERS_MAX);
      const r = await readable(req.room, ctx);
      const presence = await runtime.listeners(r.uuid);
      const page = presence.users.slice(req.offset, req.offset + limit);
      return {
        listeners: page.map((l) => ({ userUuid: l.user, joinedAt: timestampFromDate(new Date(l.joinedAt)) })),
        total: presence.users.length,
        guests: presence.guests,
      };
    },

    async listUserRooms(req) {
      const user = checkUuid(req.user, "user").toLowerCase();
      const found = runtime.roomsOfUser(user);
      const rooms = [];
      // Each room's name, slug and type from its stage (read only: asking never creates one).
      for (const { room: roomUuid, joinedAt } of found) {
        if (rooms.length === USER_ROOMS_MAX) break;
        const settings = (await runtime.store.read(roomUuid))?.stage.room;
        // Private rooms are left out for every caller: who is in one is told only inside it
        // (docs/decisions/0305-people-you-can-reach-the-person-card-the-people.md).
        if (!settings || settings.type === "PRIVATE") continue;
        rooms.push({
          roomUuid,
          slug: settings.slug,
          name: settings.name,
          joinedAt: timestampFromDate(new Date(joinedAt)),
        });
      }
      return { rooms };
    },

    async listLiveRooms(req) {
      if (req.roomUuids.length > LIVE_ROOMS_ASKED_MAX) {
        throw new ConnectError(`roomUuids must hold at most ${LIVE_ROOMS_ASKED_MAX} rooms`, Code.InvalidArgument);
      }
      if (req.roomUuids.length === 0) {
        return { rooms: rankLiveRooms(await allStages(), checkLimit(req.limit, LIVE_ROOMS_DEFAULT, LIVE_ROOMS_MAX)) };
      }
      const uuids = [...new Set(req.roomUuids.map((u, i) => checkUuid(u, `roomUuids[${i}]`).toLowerCase()))];
      const stages = await Promise.all(uuids.map(async (uuid) => (await runtime.store.read(uuid))?.stage));
      return {
        rooms: stages
          .filter((stage) => stage !== undefined)
          .filter(isListedLive)
          .map(liveRoomOf),
      };
    },

    getClock(req) {
      const receiveTime = timestampFromDate(new Date());
      return { clientTime: req.clientTime, receiveTime, sendTime: timestampFromDate(new Date()) };
    },
  };
}
