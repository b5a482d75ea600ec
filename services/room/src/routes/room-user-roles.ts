// Room roles (specification 001 §7 "Room user roles", 002 §6): grants with an optional expiry under the rank rule
// (room-rules.ts), kicks, the owner change, the no-dancefloor list and the chat group's sync.
import { timestampDate, timestampFromDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, type HandlerContext, type ServiceImpl } from "@connectrpc/connect";
import type { EntityManager } from "@mikro-orm/postgresql";
import { callIdentity, checkUuid, publishEvent } from "@tt/kit";
import { callProvider } from "@tt/providers";
import {
  RoomRoleGrantedSchema,
  RoomRoleRemovedSchema,
  RoomUserBannedSchema,
  RoomUserKickedSchema,
} from "@tt/proto/tt/room/v1/events_pb";
import {
  RoomUserRoleSchema as RoomUserRoleMessageSchema,
  type RoomUserRole as RoomUserRoleMessage,
} from "@tt/proto/tt/room/v1/room_pb";
import type { RoomUserRoleService } from "@tt/proto/tt/room/v1/room_user_role_service_pb";
import type { RoomServiceContext } from "../context.ts";
import {
  DEFAULT_KICK_MS,
  effectiveRoles,
  GRANTABLE_ROLES,
  isGlobal,
  MAX_KICK_MS,
  mayActOn,
  mayRemoveOwn,
  type Member,
  rankOf,
  RESTRICTIVE_ROLES,
} from "../modules/rooms/room-rules.ts";
import { activeGrants, memberOf, publishSettingsChanged, targetMember } from "../modules/rooms/room-store.ts";
import type { Room } from "../modules/rooms/room.entity.ts";
import { isGrantActive, RoomUserRole } from "../modules/rooms/room-user-role.entity.ts";
import {
  INSUFFICIENT_ROLE,
  MODERATOR,
  paging,
  requireRank,
  requireViewer,
  roomAndCaller,
  viewOf,
  viewRoom,
} from "./room-access.ts";

const MAX_DANCEFLOOR_QUERY = 500;

export function toRoleMessage(grant: RoomUserRole): RoomUserRoleMessage {
  return create(RoomUserRoleMessageSchema, {
    id: grant.id ?? "",
    roomUuid: grant.roomId ?? "",
    userUuid: grant.userId ?? "",
    role: grant.role ?? "",
    expiresAt: grant.expiresAt ? timestampFromDate(grant.expiresAt) : undefined,
    grantedBy: grant.grantedBy ?? "",
    createdAt: grant.createdAt ? timestampFromDate(grant.createdAt) : undefined,
  });
}

/** An expiry that must lie ahead (and at most `maxMs` ahead when given); 400 naming the field otherwise. */
function futureDate(ts: Timestamp, field: string, maxMs?: number): Date {
  const date = timestampDate(ts);
  const now = Date.now();
  if (!(date.getTime() > now)) throw new ConnectError(`${field} must be in the future`, Code.InvalidArgument);
  if (maxMs !== undefined && date.getTime() > now + maxMs) {
    throw new ConnectError(
      `${field} must be at most ${Math.round(maxMs / 86_400_000)} days ahead`,
      Code.InvalidArgument,
    );
  }
  if (date.getFullYear() > 9999) throw new ConnectError(`${field} is out of range`, Code.InvalidArgument);
  return date;
}

/** Whether the caller's token acts for a service (it has no standing in rooms but may read them). */
function isService(ctx: HandlerContext): boolean {
  return callIdentity(ctx).tokenType === "service";
}

export function roomUserRoleRoutes(svc: RoomServiceContext): ServiceImpl<typeof RoomUserRoleService> {
  const view = viewOf(svc);

  /** Grants (or re-grants with a new expiry) a role and announces it, in the call's flush. */
  async function grant(
    em: EntityManager,
    room: Room,
    actor: Member,
    userId: string,
    role: string,
    expiresAt: Date | null,
  ): Promise<RoomUserRole> {
    let row = await em.findOne(RoomUserRole, { roomId: room.id, userId, role });
    if (row) {
      row.expiresAt = expiresAt;
      row.grantedBy = actor.userId || null;
    } else {
      row = em.create(RoomUserRole, {
        roomId: room.id,
        userId,
        role,
        expiresAt,
        grantedBy: actor.userId || null,
        createdAt: new Date(),
      });
    }
    const until = expiresAt ? timestampFromDate(expiresAt) : undefined;
    publishEvent(em, RoomRoleGrantedSchema, {
      roomUuid: room.id,
      userUuid: userId,
      role,
      expiresAt: until,
      grantedBy: actor.userId,
    });
    if (role === "banned") {
      publishEvent(em, RoomUserBannedSchema, { roomUuid: room.id, userUuid: userId, until, bannedBy: actor.userId });
    }
    if (role === "kicked") {
      publishEvent(em, RoomUserKickedSchema, { roomUuid: room.id, userUuid: userId, until, kickedBy: actor.userId });
    }
    await em.flush();
    return row;
  }

  async function actOn(ctx: HandlerContext, roomId: string, userId: string) {
    const { em, room, member } = await roomAndCaller(ctx, roomId);
    // Refuse the plain user before asking the user service about the target.
    if (rankOf(member) < MODERATOR && member.userId !== userId) {
      throw new ConnectError(INSUFFICIENT_ROLE, Code.PermissionDenied);
    }
    const target = member.userId === userId ? member : await targetMember(svc, em, ctx, room, userId);
    return { em, room, member, target };
  }

  return {
    async syncChatRoles(req, ctx) {
      const { em, room, member } = await roomAndCaller(ctx, req.id);
      requireRank(member, MODERATOR);
      const now = new Date();
      const grants = (await em.find(RoomUserRole, { roomId: room.id }, { limit: 10_000 })).filter((g) =>
        isGrantActive(g, now),
      );
      const scopeOf = new Map<string, "admin" | "moderator">([[room.ownerId, "admin"]]);
      for (const g of grants) {
        if (g.role === "coOwner") scopeOf.set(g.userId, "admin");
        else if (g.role === "moderator" && !scopeOf.has(g.userId)) scopeOf.set(g.userId, "moderator");
      }
      const banned = [...new Set(grants.filter((g) => g.role === "banned").map((g) => g.userId))];
      const members = [...scopeOf].filter(([uid]) => !banned.includes(uid)).map(([uid, scope]) => ({ uid, scope }));
      await callProvider("Chat", () => svc.chat.syncGroup({ guid: room.id, name: room.name }, members, banned));
      return {
        group: room.id,
        admins: members.filter((m) => m.scope === "admin").length,
        moderators: members.filter((m) => m.scope === "moderator").length,
        banned: banned.length,
      };
    },

    async joinChat(req, ctx) {
      const { em, room, member } = await roomAndCaller(ctx, req.id);
      await requireViewer(ctx, em, room);
      if (!isGlobal(member) && (member.grants.has("banned") || member.grants.has("kicked"))) {
        throw new ConnectError(
          member.grants.has("banned") ? "You are banned from this room" : "You are kicked from this room",
          Code.PermissionDenied,
        );
      }
      const rank = rankOf(member);
      const scope = rank >= 2 ? "admin" : rank >= 1 ? "moderator" : "participant";
      await callProvider("Chat", () =>
        svc.chat.joinGroup({ guid: room.id, name: room.name }, { uid: member.userId, scope }),
      );
      return { group: room.id, scope };
    },

    async kickUserFromRoom(req, ctx) {
      const until = req.until ? futureDate(req.until, "until", MAX_KICK_MS) : new Date(Date.now() + DEFAULT_KICK_MS);
      const { em, room, member, target } = await actOn(ctx, req.roomId, req.userId.toLowerCase());
      if (!mayActOn(member, target, "kicked")) throw new ConnectError(INSUFFICIENT_ROLE, Code.PermissionDenied);
      return { role: toRoleMessage(await grant(em, room, member, target.userId, "kicked", until)) };
    },

    async listRoomRoles(req, ctx) {
      const { em, room } = await viewRoom(ctx, req.roomId);
      const page = paging(svc, req.limit, req.offset, 50);
      let seesRestrictive = isService(ctx);
      if (!seesRestrictive) {
        const identity = callIdentity(ctx);
        const userId = identity.tokenType === "guest" ? "" : identity.subject;
        const member = await memberOf(em, room, userId, identity.tokenType === "guest" ? "guest" : identity.role);
        seesRestrictive = rankOf(member) >= MODERATOR;
      }
      if (req.role !== "" && RESTRICTIVE_ROLES.has(req.role) && !seesRestrictive) {
        throw new ConnectError(INSUFFICIENT_ROLE, Code.PermissionDenied);
      }
      const roles = req.role
        ? [req.role]
        : [...GRANTABLE_ROLES].filter((r) => seesRestrictive || !RESTRICTIVE_ROLES.has(r));
      const now = new Date();
      // The owner is the room's, not a grant: it leads the first page.
      const withOwner = req.role === "" || req.role === "owner";
      const ownerRow = create(RoomUserRoleMessageSchema, {
        roomUuid: room.id,
        userUuid: room.ownerId,
        role: "owner",
        createdAt: timestampFromDate(room.createdAt),
      });
      const skip = withOwner ? Math.max(0, page.offset - 1) : page.offset;
      const take = withOwner && page.offset === 0 ? page.limit - 1 : page.limit;
      const [grants, count] = await em.findAndCount(
        RoomUserRole,
        { roomId: room.id, role: { $in: roles }, $or: [{ expiresAt: null }, { expiresAt: { $gt: now } }] },
        { orderBy: { createdAt: "ASC", id: "ASC" }, offset: skip, limit: Math.max(take, 1) },
      );
      const rows = grants.slice(0, take).map(toRoleMessage);
      return {
        roles: withOwner && page.offset === 0 ? [ownerRow, ...rows] : rows,
        total: count + (withOwner ? 1 : 0),
      };
    },

    async getUserRoomRoles(req, ctx) {
      const { em, room } = await viewRoom(ctx, req.roomId);
      const userId = checkUuid(req.userId, "userId");
      const identity = callIdentity(ctx);
      if (identity.tokenType !== "service" && identity.subject !== userId) {
        const caller = await memberOf(em, room, identity.subject, identity.role);
        requireRank(caller, MODERATOR);
      }
      const accountRole = identity.subject === userId ? identity.role : await svc.accounts.roleOf(userId, ctx.signal);
      const grants = await activeGrants(em, room.id, userId);
      const member = await memberOf(em, room, userId, accountRole);
      return { roles: effectiveRoles(member), grants: grants.map(toRoleMessage) };
    },

    async grantRoomRole(req, ctx) {
      if (!GRANTABLE_ROLES.has(req.role)) {
        throw new ConnectError(`role must be one of ${[...GRANTABLE_ROLES].join(", ")}`, Code.InvalidArgument);
      }
      const expiresAt = req.expiresAt ? futureDate(req.expiresAt, "expiresAt") : null;
      const { em, room, member, target } = await actOn(ctx, req.roomId, req.userId.toLowerCase());
      if (!mayActOn(member, target, req.role)) throw new ConnectError(INSUFFICIENT_ROLE, Code.PermissionDenied);
      return { role: toRoleMessage(await grant(em, room, member, target.userId, req.role, expiresAt)) };
    },

    async removeRoomRole(req, ctx) {
      if (!GRANTABLE_ROLES.has(req.role)) {
        throw new ConnectError(`role must be one of ${[...GRANTABLE_ROLES].join(", ")}`, Code.InvalidArgument);
      }
      const { em, room, member, target } = await actOn(ctx, req.roomId, req.userId.toLowerCase());
      if (!mayActOn(member, target, req.role) && !mayRemoveOwn(member, target, req.role)) {
        throw new ConnectError(INSUFFICIENT_ROLE, Code.PermissionDenied);
      }
      const row = await em.findOne(RoomUserRole, { roomId: room.id, userId: target.userId, role: req.role });
      if (!row) throw new ConnectError("Role not found", Code.NotFound);
      em.remove(row);
      publishEvent(em, RoomRoleRemovedSchema, {
        roomUuid: room.id,
        userUuid: target.userId,
        role: req.role,
        removedBy: member.userId,
      });
      await em.flush();
      return {};
    },

    async changeRoomOwner(req, ctx) {
      const { em, room, member } = await roomAndCaller(ctx, req.roomId);
      if (!member.isOwner && !isGlobal(member)) {
        throw new ConnectError("Only the room's owner may change its owner", Code.PermissionDenied);
      }
      const newOwner = req.userId.toLowerCase();
      if (newOwner === room.ownerId) throw new ConnectError("user is already the owner", Code.InvalidArgument);
      // 404 "User not found" for an account the user service does not know.
      await svc.accounts.roleOf(newOwner, ctx.signal);
      const oldOwner = room.ownerId;
      room.ownerId = newOwner;
      // The former owner stays as a co-owner; the new owner's lesser grants give way to ownership.
      const kept = await em.findOne(RoomUserRole, { roomId: room.id, userId: oldOwner, role: "coOwner" });
      if (kept) kept.expiresAt = null;
      else {
        em.create(RoomUserRole, {
          roomId: room.id,
          userId: oldOwner,
          role: "coOwner",
          expiresAt: null,
          grantedBy: member.userId || null,
          createdAt: new Date(),
        });
      }
      const lesser = await em.find(RoomUserRole, {
        roomId: room.id,
        userId: newOwner,
        role: { $in: ["coOwner", "moderator"] },
      });
      for (const g of lesser) em.remove(g);
      publishEvent(em, RoomRoleGrantedSchema, {
        roomUuid: room.id,
        userUuid: newOwner,
        role: "owner",
        grantedBy: member.userId,
      });
      publishEvent(em, RoomRoleRemovedSchema, {
        roomUuid: room.id,
        userUuid: oldOwner,
        role: "owner",
        removedBy: member.userId,
      });
      publishEvent(em, RoomRoleGrantedSchema, {
        roomUuid: room.id,
        userUuid: oldOwner,
        role: "coOwner",
        grantedBy: member.userId,
      });
      publishSettingsChanged(em, room, ["owner"]);
      await em.flush();
      return { room: view(room) };
    },

    async listNoDancefloorUsers(req, ctx) {
      const { em, room } = await viewRoom(ctx, req.roomId);
      if (req.userIds.length > MAX_DANCEFLOOR_QUERY) {
        throw new ConnectError(`userIds must hold at most ${MAX_DANCEFLOOR_QUERY} uuids`, Code.InvalidArgument);
      }
      if (req.userIds.length === 0) return { userIds: [] };
      const now = new Date();
      const rows = await em.find(RoomUserRole, {
        roomId: room.id,
        userId: { $in: req.userIds.map((id) => id.toLowerCase()) },
        role: { $in: ["banned", "kicked"] },
        $or: [{ expiresAt: null }, { expiresAt: { $gt: now } }],
      });
      return { userIds: [...new Set(rows.map((r) => r.userId))] };
    },
  };
}
