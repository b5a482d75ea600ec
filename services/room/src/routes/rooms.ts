// The rooms area (specification 001 §7 "Rooms"): create, join and admit, read one room, delete (one room, or a
// user's rooms for the admin, who can also change them all). The area's other RPCs are in room-lists.ts,
// room-visits.ts, room-settings.ts and room-posters.ts, merged in index.ts. Ownership and rank are checked next to
// the data (room-access.ts).
import { randomUUID } from "node:crypto";
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import { codeToString } from "@connectrpc/connect/protocol-connect";
import { UniqueConstraintViolationException } from "@mikro-orm/core";
import type { EntityManager } from "@mikro-orm/postgresql";
import { callEm, checkUuid, enforceThrottles, refundThrottles, publishEvent } from "@tt/kit";
import { RoomCreatedSchema, RoomDeletedSchema } from "@tt/proto/tt/room/v1/events_pb";
import type { RoomService } from "@tt/proto/tt/room/v1/room_service_pb";
import type { RoomServiceContext } from "../context.ts";
import { admit } from "../modules/rooms/admission.ts";
import { userNotFound } from "../modules/rooms/accounts.ts";
import {
  checksGuestPassword,
  passwordGuessChecks,
  stagePasswordGuessChecks,
  TOO_MANY_GUESSES,
} from "../modules/rooms/password-throttle.ts";
import {
  checkExternalUrl,
  DEFAULT_DESIGN,
  DEFAULT_DJ_SEATS,
  DEFAULT_DJ_TYPE,
  DEFAULT_TYPE,
  effectiveRoles,
  permissionsOf,
} from "../modules/rooms/room-rules.ts";
import {
  activeGrantsOf,
  memberOf,
  memberWith,
  publishSettingsChanged,
  requireRoom,
  setLive,
  uniqueSlug,
} from "../modules/rooms/room-store.ts";
import { Room } from "../modules/rooms/room.entity.ts";
import { RoomSlug } from "../modules/rooms/room-slug.entity.ts";
import { RoomUserRole } from "../modules/rooms/room-user-role.entity.ts";
import { RoomAdmission } from "../modules/rooms/room-admission.entity.ts";
import { RoomVisit } from "../modules/rooms/room-visit.entity.ts";
import { recordVisit } from "../modules/rooms/room-visits.ts";
import { checkProviders, OWNER, requireRank, roomAndCaller, userOf, viewOf, viewRoom } from "./room-access.ts";

/** The most callers AdmitManyToStage decides in one call. */
export const STAGE_ADMISSIONS_MAX = 100;
/** The refusals AdmitManyToStage answers per caller; any other error fails the whole call (as it fails AdmitToStage). */
const CALLER_REFUSALS: ReadonlySet<Code> = new Set([Code.PermissionDenied, Code.NotFound, Code.InvalidArgument]);

/** One caller's answer of AdmitManyToStage: its roles, or its refusal's code and message. */
interface StageAdmission {
  roles: string[];
  code: string;
  message: string;
}

/** A caller's refusal as AdmitManyToStage answers it; rethrows what is not a refusal. */
function callerRefusal(err: unknown): StageAdmission {
  if (err instanceof ConnectError && CALLER_REFUSALS.has(err.code)) {
    return { roles: [], code: codeToString(err.code), message: err.rawMessage };
  }
  throw err;
}

export function roomRoutes(svc: RoomServiceContext): Partial<ServiceImpl<typeof RoomService>> {
  const view = viewOf(svc);
  const kept = svc.areas.rooms.ROOM_RECENT_VISITS_KEPT;

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
      const accountRole = userId === "" ? "guest" : await svc.accounts.roleOf(userId, ctx.signal);
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

    // AdmitToStage for many callers of one room without passwords (the social service's joins): the room read once,
    // the users' grants in one query, each caller decided by the same `admit`.
    async admitManyToStage(req, ctx) {
      if (req.callers.length === 0 || req.callers.length > STAGE_ADMISSIONS_MAX) {
        throw new ConnectError(`callers must hold 1 to ${STAGE_ADMISSIONS_MAX} callers`, Code.InvalidArgument);
      }
      const em = callEm(ctx);
      const room = await requireRoom(em, req.room);
      // Each caller's user ("" for a guest) as AdmitToStage reads it, or its refusal; the users' account roles asked
      // in one batch (a user the user service does not have is refused as AdmitToStage refuses them).
      const users = req.callers.map((c): string | StageAdmission => {
        if (c.userUuid === "") return "";
        try {
          return checkUuid(c.userUuid.toLowerCase(), "userUuid");
        } catch (err) {
          return callerRefusal(err);
        }
      });
      const signedUp = users.filter((u): u is string => typeof u === "string" && u !== "");
      const roles = signedUp.length > 0 ? await svc.accounts.rolesOf(signedUp, ctx.signal) : new Map<string, string>();
      const grants = await activeGrantsOf(em, room.id, [...roles.keys()]);
      const admissions: StageAdmission[] = [];
      for (const [i, caller] of req.callers.entries()) {
        const userId = users[i]!;
        if (typeof userId !== "string") {
          admissions.push(userId);
          continue;
        }
        const accountRole = userId === "" ? "guest" : roles.get(userId);
        if (accountRole === undefined) {
          admissions.push(callerRefusal(userNotFound()));
          continue;
        }
        const member = memberWith(room, userId, accountRole, grants.get(userId) ?? new Set());
        if (userId === "" && caller.guestSubject !== "") member.guest = caller.guestSubject;
        try {
          await admit(em, room, member, "");
          admissions.push({ roles: effectiveRoles(member), code: "", message: "" });
        } catch (err) {
          admissions.push(callerRefusal(err));
        }
      }
      return { room: view(room), admissions };
    },

    async admitViewer(req, ctx) {
      const em = callEm(ctx);
      const room = await requireRoom(em, req.room);
      // A public room asks nothing of the caller; a private one needs their account role (admins see every room).
      if (room.type === "PRIVATE") {
        const userId = req.userUuid === "" ? "" : checkUuid(req.userUuid.toLowerCase(), "userUuid");
        const accountRole = userId === "" ? "guest" : await svc.accounts.roleOf(userId, ctx.signal);
        const member = await memberOf(em, room, userId, accountRole);
        if (userId === "" && req.guestSubject !== "") member.guest = req.guestSubject;
        // admitViewer's rule, but a caller who is nobody is refused with 403 too: a service client reads any 401 as a
        // refusal of its own identity (kit service-clients), so the asking service answers its caller's 401 itself.
        await admit(em, room, member, "");
      }
      return { room: view(room) };
    },

    async getServiceRoom(req, ctx) {
      return { room: view(await requireRoom(callEm(ctx), req.id)) };
    },

    async getRoom(req, ctx) {
      return { room: view((await viewRoom(ctx, req.id)).room) };
    },

    async getRoomByUuid(req, ctx) {
      return { room: view((await viewRoom(ctx, req.uuid)).room) };
    },

    async deleteRoom(req, ctx) {
      const { em, room, member } = await roomAndCaller(ctx, req.id);
      requireRank(member, OWNER);
      await deleteRoomIn(em, room);
      if (room.posterKey) await svc.posters.delete(room.posterKey).catch(() => undefined);
      return {};
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
