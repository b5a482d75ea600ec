// The rooms area (specification 001 §7 "Rooms"): create, join, read and list, each setting through its own call,
// delete. Ownership and rank are checked next to the data (room-access.ts); every list is paged.
import { randomUUID } from "node:crypto";
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type HandlerContext, type ServiceImpl } from "@connectrpc/connect";
import { UniqueConstraintViolationException } from "@mikro-orm/core";
import type { EntityManager } from "@mikro-orm/postgresql";
import {
  callEm,
  callIdentity,
  callProvider,
  checkUuid,
  detectImageType,
  enforceThrottles,
  refundThrottles,
  publishEvent,
  compiledOnce,
  sql,
} from "@tt/kit";
import { RoomConversationClearedSchema, RoomCreatedSchema, RoomDeletedSchema } from "@tt/proto/tt/room/v1/events_pb";
import type { RoomService } from "@tt/proto/tt/room/v1/room_service_pb";
import type { RoomServiceContext } from "../context.ts";
import { autoCommitDb } from "../db.ts";
import { admit } from "../modules/rooms/admission.ts";
import { guestPasswordLookup, verifyGuestPassword } from "../modules/rooms/guest-password.ts";
import {
  checksGuestPassword,
  passwordGuessChecks,
  stagePasswordGuessChecks,
  TOO_MANY_GUESSES,
} from "../modules/rooms/password-throttle.ts";
import { encodePoster, posterKey } from "../modules/rooms/poster.ts";
import {
  checkExternalUrl,
  DEFAULT_DESIGN,
  DEFAULT_DJ_SEATS,
  DEFAULT_DJ_TYPE,
  DEFAULT_TYPE,
  effectiveRoles,
  MAX_MUSIC_PROVIDERS,
  MAX_PINNED_MESSAGES,
  type Member,
  permissionsOf,
} from "../modules/rooms/room-rules.ts";
import {
  memberOf,
  publishSettingsChanged,
  renameRoom,
  requireRoom,
  setLive,
  uniqueSlug,
} from "../modules/rooms/room-store.ts";
import { Room } from "../modules/rooms/room.entity.ts";
import { RoomSlug } from "../modules/rooms/room-slug.entity.ts";
import { isGrantActive, RoomUserRole } from "../modules/rooms/room-user-role.entity.ts";
import { RoomAdmission } from "../modules/rooms/room-admission.entity.ts";
import { RoomVisit } from "../modules/rooms/room-visit.entity.ts";
import {
  CO_OWNER,
  MODERATOR,
  OWNER,
  paging,
  requireRank,
  requireViewer,
  roomAndCaller,
  takeSkip,
  viewOf,
  viewRoom,
} from "./room-access.ts";

/** Who "is in" a room until the live stage answers: users who joined within this window. */
export const PRESENCE_WINDOW_MS = 60 * 60 * 1000;

/** A list of MusicProvider wire names, capped and without repeats (the field rules' in_enum refused unknown names). */
function checkProviders(providers: readonly string[], field = "musicProviders"): string[] {
  if (providers.length > MAX_MUSIC_PROVIDERS) {
    throw new ConnectError(`${field} must hold at most ${MAX_MUSIC_PROVIDERS} providers`, Code.InvalidArgument);
  }
  return [...new Set(providers)];
}

/** The room's general settings (PATCH /rooms/{id}, /rooms/{id}/infrastructure, /rooms/admin/{id}). */
interface GeneralSettings {
  name?: string;
  description?: string;
  type?: string;
  design?: string;
  musicProviders?: string[];
}

export async function applyGeneral(em: EntityManager, room: Room, req: GeneralSettings): Promise<string[]> {
  const changed: string[] = [];
  if (req.name !== undefined && req.name.trim() !== room.name) {
    const name = req.name.trim();
    if (name === "") throw new ConnectError("name must not be blank", Code.InvalidArgument);
    const oldSlug = room.slug;
    await renameRoom(em, room, name);
    changed.push("name");
    if (room.slug !== oldSlug) changed.push("slug");
  }
  if (req.description !== undefined && req.description !== room.description) {
    room.description = req.description;
    changed.push("description");
  }
  if (req.type !== undefined && req.type !== room.type) {
    room.type = req.type;
    if (req.type === "PRIVATE" && room.promoted) {
      room.promoted = false;
      room.promotedAt = null;
      changed.push("promoted");
    }
    changed.push("type");
  }
  if (req.design !== undefined && req.design !== room.design) {
    room.design = req.design;
    changed.push("design");
  }
  if (req.musicProviders !== undefined && req.musicProviders.length > 0) {
    room.musicProviders = checkProviders(req.musicProviders);
    changed.push("musicProviders");
  }
  return changed;
}

/**
 * Records (or moves on) the user's visit of the room and keeps their latest `kept` visits, in one statement (it
 * runs on every join): the upsert, then the user's other visits beyond the newest `kept - 1` are deleted.
 */
async function recordVisit(em: EntityManager, userId: string, roomId: string, kept: number): Promise<void> {
  await upsertVisit(em, { id: randomUUID(), userId, roomId, offset: Math.max(0, kept - 1) });
}

// On the pool, outside the join's transaction, as one statement; compiled once (every join runs it).
const upsertVisit = compiledOnce(autoCommitDb, (q, p: { id: string; userId: string; roomId: string; offset: number }) =>
  q
    .with("up", (up) =>
      up
        .insertInto("room_visit")
        .values({ id: p.id, user_id: p.userId, room_id: p.roomId, visited_at: sql<Date>`now()` })
        .onConflict((oc) =>
          oc.columns(["user_id", "room_id"]).doUpdateSet((eb) => ({ visited_at: eb.ref("excluded.visited_at") })),
        )
        .returning("id"),
    )
    .deleteFrom("room_visit")
    .where("id", "in", (eb) =>
      eb
        .selectFrom("room_visit")
        .select("id")
        .where("user_id", "=", p.userId)
        .where("id", "not in", eb.selectFrom("up").select("up.id"))
        .orderBy("visited_at", "desc")
        .orderBy("id", "desc")
        .offset(p.offset),
    ),
);

/** The caller's user uuid, or 401 for a token that is not a user's or a bot's. */
function userOf(ctx: HandlerContext): string {
  const identity = callIdentity(ctx);
  if (identity.tokenType !== "user" && identity.tokenType !== "bot") {
    throw new ConnectError("Unauthorized", Code.Unauthenticated);
  }
  return identity.subject;
}

export function roomRoutes(svc: RoomServiceContext): ServiceImpl<typeof RoomService> {
  const view = viewOf(svc);
  const kept = svc.areas.rooms.ROOM_RECENT_VISITS_KEPT;

  /** Loads the room by uuid, checks the caller's rank, applies `change`, announces and stores it in one flush. */
  async function changeRoom(
    ctx: HandlerContext,
    id: string,
    minRank: number,
    change: (room: Room, em: EntityManager, member: Member) => Promise<string[]> | string[],
  ) {
    const { em, room, member } = await roomAndCaller(ctx, id);
    requireRank(member, minRank);
    const changed = await change(room, em, member);
    publishSettingsChanged(em, room, changed);
    await em.flush();
    return { room: view(room) };
  }

  async function visitedRooms(ctx: HandlerContext, limit: number, offset: number) {
    const em = callEm(ctx);
    const userId = userOf(ctx);
    const page = paging(svc, limit, offset);
    const [visits, total] = await em.findAndCount(
      RoomVisit,
      { userId },
      { orderBy: { visitedAt: "DESC", id: "DESC" }, ...page },
    );
    const rooms = new Map(
      (await em.find(Room, { id: { $in: visits.map((v) => v.roomId) } })).map((r) => [r.id, r] as const),
    );
    const found = visits.filter((v) => rooms.has(v.roomId)).map((v) => ({ visit: v, room: rooms.get(v.roomId)! }));
    return { found, total };
  }

  async function roomUsers(ctx: HandlerContext, id: string, limit: number, offset: number) {
    const { em, room } = await viewRoom(ctx, id);
    const page = paging(svc, limit, offset);
    // Who listens now, from the live stage; the room service's joins of the last hour when it cannot answer.
    const live = await svc.presence.listeners(room.id, Math.min(page.limit, 500), page.offset, ctx.signal);
    let visits: { userId: string; visitedAt: Date }[];
    let total: number;
    if (live) {
      visits = live.listeners.map((l) => ({
        userId: l.userUuid,
        visitedAt: l.joinedAt ? timestampDate(l.joinedAt) : new Date(),
      }));
      total = live.total;
    } else {
      const since = new Date(Date.now() - PRESENCE_WINDOW_MS);
      [visits, total] = await em.findAndCount(
        RoomVisit,
        { roomId: room.id, visitedAt: { $gte: since } },
        { orderBy: { visitedAt: "DESC", id: "DESC" }, ...page },
      );
    }
    const now = new Date();
    const grants = (
      await em.find(RoomUserRole, { roomId: room.id, userId: { $in: visits.map((v) => v.userId) } })
    ).filter((g) => isGrantActive(g, now));
    const users = visits.map((v) => {
      const member: Member = {
        userId: v.userId,
        accountRole: "user",
        isOwner: room.ownerId === v.userId,
        grants: new Set(grants.filter((g) => g.userId === v.userId).map((g) => g.role)),
      };
      return { userUuid: v.userId, roles: effectiveRoles(member), joinedAt: timestampFromDate(v.visitedAt) };
    });
    return { users, total, source: live ? "social-service" : "room-service" };
  }

  async function deleteRoomIn(em: EntityManager, room: Room): Promise<void> {
    await em.transactional(async (tx) => {
      await tx.nativeDelete(RoomUserRole, { roomId: room.id });
      await tx.nativeDelete(RoomVisit, { roomId: room.id });
      await tx.nativeDelete(RoomAdmission, { roomId: room.id });
      await tx.nativeDelete(RoomSlug, { roomId: room.id });
      await tx.nativeDelete(Room, { id: room.id });
      publishEvent(tx, RoomDeletedSchema, { roomUuid: room.id, slug: room.slug });
    });
    svc.directory.invalidate();
  }

  return {
    async createRoom(req, ctx) {
      const ownerId = userOf(ctx);
      const name = req.name.trim();
      if (name === "") throw new ConnectError("name must not be blank", Code.InvalidArgument);
      const externalUrl = req.externalUrl === "" ? null : checkExternalUrl(req.externalUrl);
      const musicProviders = checkProviders(req.musicProviders);
      // Two rooms created with one name at once: the loser of the slug's unique index tries the next slug.
      for (let attempt = 0; ; attempt++) {
        const em = callEm(ctx).fork();
        const slug = await uniqueSlug(em, name, undefined, attempt > 0);
        const room = em.create(Room, {
          id: randomUUID(),
          slug,
          name,
          description: req.description,
          ownerId,
          type: req.type || DEFAULT_TYPE,
          design: req.design || DEFAULT_DESIGN,
          djType: req.djType || DEFAULT_DJ_TYPE,
          numberOfDjs: req.numberOfDjs || DEFAULT_DJ_SEATS,
          isLive: false,
          playedSeconds: 0,
          liveAudio: false,
          pinnedMessages: [],
          externalUrl,
          promoted: false,
          musicProviders,
          createdAt: new Date(),
          updatedAt: new Date(),
        });
        em.create(RoomSlug, { slug, roomId: room.id, createdAt: new Date() });
        publishEvent(em, RoomCreatedSchema, { roomUuid: room.id, slug, ownerUuid: ownerId, type: room.type });
        try {
          await em.flush();
          return { room: view(room) };
        } catch (err) {
          if (err instanceof UniqueConstraintViolationException && attempt < 5) continue;
          throw err;
        }
      }
    },

    async joinRoom(req, ctx) {
      const { em, room, member } = await roomAndCaller(ctx, req.id);
      const guess = checksGuestPassword(room, member, req.guestPassword)
        ? passwordGuessChecks(ctx, svc.areas.limits, room.id)
        : [];
      if (guess.length > 0) await enforceThrottles(em, guess, TOO_MANY_GUESSES);
      await admit(em, room, member, req.guestPassword);
      // Only wrong guesses spend the budget: a room's guests (and a guest who rejoins) are never held back by it.
      await refundThrottles(em, guess);
      if (member.userId !== "") {
        await recordVisit(em, member.userId, room.id, kept);
        svc.directory.visited(member.userId);
      }
      return {
        room: view(room),
        roles: effectiveRoles(member),
        permissions: permissionsOf(member, room.djType),
        numberOfDjs: room.numberOfDjs,
        djType: room.djType,
        liveStage: { url: "", status: "pending" },
      };
    },

    async admitToStage(req, ctx) {
      const em = callEm(ctx);
      const room = await requireRoom(em, req.room);
      const userId = req.userUuid === "" ? "" : checkUuid(req.userUuid.toLowerCase(), "userUuid");
      const accountRole = userId === "" ? "guest" : await svc.accountRoleOf(userId, ctx.signal);
      const member = await memberOf(em, room, userId, accountRole);
      if (userId === "" && req.guestSubject !== "") member.guest = req.guestSubject;
      // The stage's join stream is another way to guess: counted by room and user as JoinRoom counts them.
      const guess = checksGuestPassword(room, member, req.guestPassword)
        ? stagePasswordGuessChecks(svc.areas.limits, room.id, userId)
        : [];
      if (guess.length > 0) await enforceThrottles(em, guess, TOO_MANY_GUESSES);
      await admit(em, room, member, req.guestPassword);
      await refundThrottles(em, guess);
      return { room: view(room), roles: effectiveRoles(member) };
    },

    async admitViewer(req, ctx) {
      const em = callEm(ctx);
      const room = await requireRoom(em, req.room);
      // A public room asks nothing of the caller; a private one needs their account role (admins see every room).
      if (room.type === "PRIVATE") {
        const userId = req.userUuid === "" ? "" : checkUuid(req.userUuid.toLowerCase(), "userUuid");
        const accountRole = userId === "" ? "guest" : await svc.accountRoleOf(userId, ctx.signal);
        const member = await memberOf(em, room, userId, accountRole);
        if (userId === "" && req.guestSubject !== "") member.guest = req.guestSubject;
        // admitViewer's rule, but a caller who is nobody is refused with 403 too: a service client reads any 401 as a
        // refusal of its own identity (kit service-clients), so the asking service answers its caller's 401 itself.
        await admit(em, room, member, "");
      }
      return { room: view(room) };
    },

    async serviceListRooms(req, ctx) {
      const page = takeSkip(svc, req.take, req.skip);
      const [rooms, total] = await callEm(ctx).findAndCount(
        Room,
        {},
        { orderBy: { createdAt: "ASC", id: "ASC" }, ...page },
      );
      return { rooms: rooms.map(view), total };
    },

    async getServiceRoom(req, ctx) {
      return { room: view(await requireRoom(callEm(ctx), req.id)) };
    },

    async listPromotedRooms(req) {
      const page = paging(svc, req.limit, req.offset);
      checkProviders(req.providers, "providers");
      return svc.directory.promotedRooms(req.providers, page.limit, page.offset);
    },

    async listPublicRooms(req) {
      // From the directory's snapshot, with each live room's summary (docs/decisions/0328-…-lists.md).
      const page = paging(svc, req.limit, req.offset);
      return svc.directory.publicRooms(req.search.trim(), page.limit, page.offset);
    },

    async getPrivateRoomCount(_req, ctx) {
      return { count: await callEm(ctx).count(Room, { type: "PRIVATE" }) };
    },

    async getRoom(req, ctx) {
      return { room: view((await viewRoom(ctx, req.id)).room) };
    },

    async getRoomByUuid(req, ctx) {
      return { room: view((await viewRoom(ctx, req.uuid)).room) };
    },

    async listMultipleRooms(req, ctx) {
      if (req.room.length > 100) throw new ConnectError("room must hold at most 100 uuids", Code.InvalidArgument);
      if (req.room.length === 0) return { rooms: [] };
      const ids = req.room.map((id) => id.toLowerCase());
      const em = callEm(ctx);
      const rooms = await em.find(Room, { id: { $in: ids } });
      // Private rooms the caller may not see are left out, as unknown ones are (issue 23).
      const seen: Room[] = [];
      for (const room of rooms) {
        try {
          await requireViewer(ctx, em, room);
          seen.push(room);
        } catch (err) {
          const code = ConnectError.from(err).code;
          if (code !== Code.PermissionDenied && code !== Code.Unauthenticated) throw err;
        }
      }
      const byId = new Map(seen.map((r) => [r.id, r] as const));
      return { rooms: [...new Set(ids)].flatMap((id) => (byId.has(id) ? [view(byId.get(id)!)] : [])) };
    },

    async listMyRooms(req, ctx) {
      const page = paging(svc, req.limit, req.offset);
      return svc.directory.myRooms(userOf(ctx), page.limit, page.offset);
    },

    async listRoomUsers(req, ctx) {
      return roomUsers(ctx, req.id, req.limit, req.offset);
    },

    async listServiceRoomUsers(req, ctx) {
      return roomUsers(ctx, req.id, req.limit, req.offset);
    },

    async listRoomsByPassword(req, ctx) {
      const em = callEm(ctx);
      const guess = passwordGuessChecks(ctx, svc.areas.limits);
      await enforceThrottles(em, guess, TOO_MANY_GUESSES);
      const lookup = guestPasswordLookup(svc.areas.rooms.ROOM_GUEST_PASSWORD_PEPPER, req.password);
      // Two rooms are enough to know the password is not one room's.
      const candidates = await em.find(Room, { guestPasswordLookup: lookup }, { limit: 2 });
      const matching: Room[] = [];
      for (const room of candidates) {
        if (room.guestPasswordHash && (await verifyGuestPassword(room.guestPasswordHash, req.password))) {
          matching.push(room);
        }
      }
      // A password finds one room (issue 23): one guess must not try every private room at once and say which of
      // them matched. A password several rooms share finds none; their guests join by the room's link with it.
      if (matching.length !== 1) return { rooms: [] };
      await refundThrottles(em, guess);
      return { rooms: matching.map(view) };
    },

    async listOwnedRooms(req, ctx) {
      const page = paging(svc, req.limit, req.offset);
      const [rooms, total] = await callEm(ctx).findAndCount(
        Room,
        { ownerId: userOf(ctx) },
        { orderBy: { createdAt: "DESC", id: "DESC" }, ...page },
      );
      return { rooms: rooms.map(view), total };
    },

    async clearConversation(req, ctx) {
      const { em, room, member } = await roomAndCaller(ctx, req.id);
      requireRank(member, MODERATOR);
      const now = new Date();
      room.conversationClearedAt = now;
      publishEvent(em, RoomConversationClearedSchema, {
        roomUuid: room.id,
        clearedBy: member.userId,
        clearedAt: timestampFromDate(now),
      });
      await em.flush();
      return { room: view(room) };
    },

    async recordRecentRoom(req, ctx) {
      const em = callEm(ctx);
      const userId = userOf(ctx);
      const { room } = await viewRoom(ctx, req.roomId);
      await recordVisit(em, userId, room.id, kept);
      svc.directory.visited(userId);
      const { found } = await visitedRooms(ctx, 0, 0);
      return { rooms: found.map((f) => view(f.room)) };
    },

    async listRecentRooms(req, ctx) {
      const page = paging(svc, req.limit, req.offset);
      const { rooms, total } = await svc.directory.visitedRooms(userOf(ctx), kept, page.limit, page.offset);
      return { rooms: rooms.map((r) => r.room), total };
    },

    async listRecentlyVisitedRooms(req, ctx) {
      const { found, total } = await visitedRooms(ctx, req.limit, req.offset);
      return {
        rooms: found.map((f) => ({ room: view(f.room), visitedAt: timestampFromDate(f.visit.visitedAt) })),
        total,
      };
    },

    async updateRoom(req, ctx) {
      return changeRoom(ctx, req.id, CO_OWNER, (room, em) => applyGeneral(em, room, req));
    },

    async updateRoomInfrastructure(req, ctx) {
      return changeRoom(ctx, req.id, CO_OWNER, (room, em) => applyGeneral(em, room, req));
    },

    async deleteRoom(req, ctx) {
      const { em, room, member } = await roomAndCaller(ctx, req.id);
      requireRank(member, OWNER);
      await deleteRoomIn(em, room);
      if (room.posterKey) await svc.posters.delete(room.posterKey).catch(() => undefined);
      return {};
    },

    async setPinnedMessages(req, ctx) {
      if (req.pinnedMessages.length > MAX_PINNED_MESSAGES) {
        throw new ConnectError(
          `pinnedMessages must hold at most ${MAX_PINNED_MESSAGES} messages`,
          Code.InvalidArgument,
        );
      }
      return changeRoom(ctx, req.id, MODERATOR, (room) => {
        room.pinnedMessages = [...req.pinnedMessages];
        return ["pinnedMessages"];
      });
    },

    async promoteRoom(req, ctx) {
      const { em, room, member } = await roomAndCaller(ctx, req.id);
      const staff = ["admin", "staff", "superUser"].includes(member.accountRole);
      if (!staff) {
        if (!member.isOwner) throw new ConnectError("Only the room's owner may promote it", Code.PermissionDenied);
        if (!(await svc.hasCapability(member.userId, "promoteRoom", ctx.signal))) {
          throw new ConnectError("promoteRoom capability required", Code.PermissionDenied);
        }
      }
      if (req.promoted && room.type === "PRIVATE") {
        throw new ConnectError("a private room cannot be promoted", Code.InvalidArgument);
      }
      if ((room.promoted ?? false) !== req.promoted) {
        room.promoted = req.promoted;
        room.promotedAt = req.promoted ? new Date() : null;
        publishSettingsChanged(em, room, ["promoted"]);
        await em.flush();
      }
      return { room: view(room) };
    },

    async setDjType(req, ctx) {
      return changeRoom(ctx, req.id, CO_OWNER, (room) => {
        if (room.djType === req.djType) return [];
        room.djType = req.djType;
        return ["djType"];
      });
    },

    async setLiveAudio(req, ctx) {
      return changeRoom(ctx, req.id, MODERATOR, (room) => {
        if ((room.liveAudio ?? false) === req.liveAudio) return [];
        room.liveAudio = req.liveAudio;
        return ["liveAudio"];
      });
    },

    async setLiveState(req, ctx) {
      return changeRoom(ctx, req.id, MODERATOR, (room) => (setLive(room, req.isLive) ? ["isLive"] : []));
    },

    async setDjSeats(req, ctx) {
      return changeRoom(ctx, req.id, CO_OWNER, (room) => {
        if (room.numberOfDjs === req.numberOfDjs) return [];
        room.numberOfDjs = req.numberOfDjs;
        return ["numberOfDjs"];
      });
    },

    async uploadPoster(req, ctx) {
      const { em, room, member } = await roomAndCaller(ctx, req.id);
      requireRank(member, CO_OWNER);
      const bytes = req.file?.content;
      if (!bytes || bytes.length === 0) throw new ConnectError("file missing in request", Code.InvalidArgument);
      const max = svc.areas.poster.ROOM_POSTER_MAX_BYTES;
      if (bytes.length > max) throw new ConnectError(`file must be at most ${max} bytes`, Code.InvalidArgument);
      if (!detectImageType(bytes)) {
        throw new ConnectError("file must be a JPEG, PNG, GIF or WebP image", Code.InvalidArgument);
      }
      let webp: Uint8Array;
      try {
        webp = await encodePoster(bytes);
      } catch {
        throw new ConnectError("file could not be read as an image", Code.InvalidArgument);
      }
      const key = posterKey(randomUUID());
      await callProvider("The media store", () => svc.posters.put(key, webp, "image/webp"));
      const old = room.posterKey;
      room.posterKey = key;
      publishSettingsChanged(em, room, ["poster"]);
      try {
        await em.flush();
      } catch (err) {
        await svc.posters.delete(key).catch(() => undefined);
        throw err;
      }
      if (old) await svc.posters.delete(old).catch(() => undefined);
      return { room: view(room) };
    },

    async deletePoster(req, ctx) {
      const { em, room, member } = await roomAndCaller(ctx, req.id);
      requireRank(member, CO_OWNER);
      const old = room.posterKey;
      if (old) {
        room.posterKey = null;
        publishSettingsChanged(em, room, ["poster"]);
        await em.flush();
        await svc.posters.delete(old).catch(() => undefined);
      }
      return { room: view(room) };
    },

    async setExternalUrl(req, ctx) {
      const url = req.externalUrl === "" ? null : checkExternalUrl(req.externalUrl);
      return changeRoom(ctx, req.id, CO_OWNER, (room) => {
        if ((room.externalUrl ?? null) === url) return [];
        room.externalUrl = url;
        return ["externalUrl"];
      });
    },

    async listGuildRooms(req, ctx) {
      const page = paging(svc, req.limit, req.offset);
      const [rooms, total] = await callEm(ctx).findAndCount(
        Room,
        { discordGuild: req.guild, type: "PUBLIC" },
        { orderBy: { createdAt: "DESC", id: "DESC" }, ...page },
      );
      return { rooms: rooms.map(view), total };
    },

    async linkGuildRoom(req, ctx) {
      if (req.guild === "") throw new ConnectError("guild missing in request", Code.InvalidArgument);
      return changeRoom(ctx, req.roomId, CO_OWNER, (room) => {
        if (room.discordGuild === req.guild) return [];
        room.discordGuild = req.guild;
        return ["discordGuild"];
      });
    },

    async deleteUserRooms(req, ctx) {
      const em = callEm(ctx);
      const rooms = await em.find(Room, { ownerId: checkUuid(req.userId, "userId") }, { limit: 1000 });
      for (const room of rooms) {
        await deleteRoomIn(em, room);
        if (room.posterKey) await svc.posters.delete(room.posterKey).catch(() => undefined);
      }
      return { count: rooms.length };
    },

    async updateUserRooms(req, ctx) {
      const em = callEm(ctx);
      const rooms = await em.find(Room, { ownerId: checkUuid(req.userId, "userId") }, { limit: 1000 });
      for (const room of rooms) {
        const changed: string[] = [];
        if (req.type !== undefined && req.type !== room.type) {
          room.type = req.type;
          changed.push("type");
          if (req.type === "PRIVATE" && room.promoted) {
            room.promoted = false;
            room.promotedAt = null;
            changed.push("promoted");
          }
        }
        if (req.isLive !== undefined && setLive(room, req.isLive)) changed.push("isLive");
        if (
          req.promoted !== undefined &&
          req.promoted !== room.promoted &&
          !(req.promoted && room.type === "PRIVATE")
        ) {
          room.promoted = req.promoted;
          room.promotedAt = req.promoted ? new Date() : null;
          changed.push("promoted");
        }
        if (req.djType !== undefined && req.djType !== room.djType) {
          room.djType = req.djType;
          changed.push("djType");
        }
        publishSettingsChanged(em, room, changed);
      }
      await em.flush();
      return { count: rooms.length };
    },
  };
}
