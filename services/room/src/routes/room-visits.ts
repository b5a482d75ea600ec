// The rooms area's visits (specification 001 §7 "Rooms"): the caller's recent rooms, and the users in a room (the
// live stage's listeners; the room service's joins of the last hour when the stage cannot answer).
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import { callEm } from "@tt/kit";
import type { RoomService } from "@tt/proto/tt/room/v1/room_service_pb";
import type { RoomServiceContext } from "../context.ts";
import { effectiveRoles, type Member } from "../modules/rooms/room-rules.ts";
import { Room } from "../modules/rooms/room.entity.ts";
import { isGrantActive, RoomUserRole } from "../modules/rooms/room-user-role.entity.ts";
import { RoomVisit } from "../modules/rooms/room-visit.entity.ts";
import { PRESENCE_WINDOW_MS, recordVisit } from "../modules/rooms/room-visits.ts";
import { paging, userOf, viewOf, viewRoom } from "./room-access.ts";

export function roomVisitRoutes(svc: RoomServiceContext): Partial<ServiceImpl<typeof RoomService>> {
  const view = viewOf(svc);
  const kept = svc.areas.rooms.ROOM_RECENT_VISITS_KEPT;

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

  return {
    async listRoomUsers(req, ctx) {
      return roomUsers(ctx, req.id, req.limit, req.offset);
    },

    async listServiceRoomUsers(req, ctx) {
      return roomUsers(ctx, req.id, req.limit, req.offset);
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
  };
}
