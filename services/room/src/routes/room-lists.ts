// The rooms area's lists (specification 001 §7 "Rooms"): the directory of public rooms, promoted rooms, a guild's
// rooms, the caller's own rooms, rooms by uuid or by guest password, and every room for services. Every list is paged.
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import { callEm, enforceThrottles, refundThrottles } from "@tt/kit";
import type { RoomService } from "@tt/proto/tt/room/v1/room_service_pb";
import type { RoomServiceContext } from "../context.ts";
import { guestPasswordLookup, verifyGuestPassword } from "../modules/rooms/guest-password.ts";
import { passwordGuessChecks, TOO_MANY_GUESSES } from "../modules/rooms/password-throttle.ts";
import { Room } from "../modules/rooms/room.entity.ts";
import { checkProviders, paging, requireViewer, takeSkip, userOf, viewOf } from "./room-access.ts";

export function roomListRoutes(svc: RoomServiceContext): Partial<ServiceImpl<typeof RoomService>> {
  const view = viewOf(svc);

  return {
    async serviceListRooms(req, ctx) {
      const page = takeSkip(svc, req.take, req.skip);
      const [rooms, total] = await callEm(ctx).findAndCount(
        Room,
        {},
        { orderBy: { createdAt: "ASC", id: "ASC" }, ...page },
      );
      return { rooms: rooms.map(view), total };
    },

    async listPromotedRooms(req) {
      const page = paging(svc, req.limit, req.offset);
      checkProviders(req.providers, "providers");
      return svc.directory.promotedRooms(req.providers, page.limit, page.offset);
    },

    async listPublicRooms(req) {
      // From the directory's snapshot, with each live room's summary (docs/decisions/0331-the-live-directory-cards-live-data-and-the-lists.md).
      const page = paging(svc, req.limit, req.offset);
      return svc.directory.publicRooms(req.search.trim(), page.limit, page.offset);
    },

    async getPrivateRoomCount(_req, ctx) {
      return { count: await callEm(ctx).count(Room, { type: "PRIVATE" }) };
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

    async listGuildRooms(req, ctx) {
      const page = paging(svc, req.limit, req.offset);
      const [rooms, total] = await callEm(ctx).findAndCount(
        Room,
        { discordGuild: req.guild, type: "PUBLIC" },
        { orderBy: { createdAt: "DESC", id: "DESC" }, ...page },
      );
      return { rooms: rooms.map(view), total };
    },
  };
}
