// The room service's admin calls for rooms and DJs: the lists through the kit's admin list query language, one
// room or DJ grant, any setting of a room, and the guest password.
import type { ServiceImpl } from "@connectrpc/connect";
import { Code, ConnectError } from "@connectrpc/connect";
import { adminList, callEm, callIdentity, checkUuid, type AdminListSpec } from "@tt/kit";
import type { AdminService } from "@tt/proto/tt/room/v1/admin_service_pb";
import type { RoomServiceContext } from "../context.ts";
import { guestPasswordLookup, hashGuestPassword } from "../modules/rooms/guest-password.ts";
import { publishSettingsChanged, requireRoom, setLive } from "../modules/rooms/room-store.ts";
import { Room } from "../modules/rooms/room.entity.ts";
import { RoomUserRole } from "../modules/rooms/room-user-role.entity.ts";
import { applyGeneral } from "./room-settings.ts";
import { viewOf } from "./room-access.ts";
import { toRoleMessage } from "./room-user-roles.ts";
import { publishEvent } from "@tt/kit";
import { RoomRoleGrantedSchema, RoomRoleRemovedSchema } from "@tt/proto/tt/room/v1/events_pb";

/** API field name → entity property: the only fields a room list query may select, search, filter or sort by. */
export const ADMIN_ROOM_LIST: AdminListSpec<Room> = {
  entity: Room,
  fields: {
    uuid: "id",
    slug: "slug",
    name: "name",
    ownerUuid: "ownerId",
    type: "type",
    design: "design",
    djType: "djType",
    numberOfDjs: "numberOfDjs",
    isLive: "isLive",
    liveAudio: "liveAudio",
    promoted: "promoted",
    discordGuild: "discordGuild",
    createdAt: "createdAt",
    updatedAt: "updatedAt",
  },
  defaultSort: [
    ["createdAt", "DESC"],
    ["uuid", "DESC"],
  ],
};

/** The DJ list: the dj grants of every room. */
export const ADMIN_DJ_LIST: AdminListSpec<RoomUserRole> = {
  entity: RoomUserRole,
  fields: {
    id: "id",
    roomUuid: "roomId",
    userUuid: "userId",
    expiresAt: "expiresAt",
    grantedBy: "grantedBy",
    createdAt: "createdAt",
  },
  defaultSort: [
    ["createdAt", "DESC"],
    ["id", "DESC"],
  ],
};

export function adminRoutes(svc: RoomServiceContext): Partial<ServiceImpl<typeof AdminService>> {
  const view = viewOf(svc);
  return {
    async adminListRooms(req, ctx) {
      const page = await adminList(callEm(ctx), ADMIN_ROOM_LIST, req.query ?? {});
      return { ...page, data: page.data.map((room) => view(room as Room)) };
    },

    async adminGetRoom(req, ctx) {
      return { room: view(await requireRoom(callEm(ctx), req.id)) };
    },

    async adminListDjs(req, ctx) {
      const page = await adminList(callEm(ctx), ADMIN_DJ_LIST, req.query ?? {}, { role: "dj" });
      return { ...page, data: page.data.map((g) => toRoleMessage(g as RoomUserRole)) };
    },

    async adminGetDj(req, ctx) {
      const dj = await callEm(ctx).findOne(RoomUserRole, { id: checkUuid(req.id), role: "dj" });
      if (!dj) throw new ConnectError("DJ not found", Code.NotFound);
      return { dj: toRoleMessage(dj) };
    },

    async adminUpdateRoom(req, ctx) {
      const em = callEm(ctx);
      const room = await requireRoom(em, req.id);
      const changed = await applyGeneral(em, room, req);
      if (req.djType !== undefined && req.djType !== room.djType) {
        room.djType = req.djType;
        changed.push("djType");
      }
      if (req.numberOfDjs !== undefined && req.numberOfDjs !== room.numberOfDjs) {
        room.numberOfDjs = req.numberOfDjs;
        changed.push("numberOfDjs");
      }
      if (req.isLive !== undefined && setLive(room, req.isLive)) changed.push("isLive");
      if (req.liveAudio !== undefined && req.liveAudio !== room.liveAudio) {
        room.liveAudio = req.liveAudio;
        changed.push("liveAudio");
      }
      if (req.promoted !== undefined && req.promoted !== room.promoted) {
        if (req.promoted && room.type === "PRIVATE") {
          throw new ConnectError("a private room cannot be promoted", Code.InvalidArgument);
        }
        room.promoted = req.promoted;
        room.promotedAt = req.promoted ? new Date() : null;
        changed.push("promoted");
      }
      if (req.ownerUuid !== undefined && req.ownerUuid.toLowerCase() !== room.ownerId) {
        const newOwner = req.ownerUuid.toLowerCase();
        await svc.accounts.roleOf(newOwner, ctx.signal);
        const by = callIdentity(ctx).subject;
        publishEvent(em, RoomRoleRemovedSchema, {
          roomUuid: room.id,
          userUuid: room.ownerId,
          role: "owner",
          removedBy: by,
        });
        publishEvent(em, RoomRoleGrantedSchema, {
          roomUuid: room.id,
          userUuid: newOwner,
          role: "owner",
          grantedBy: by,
        });
        room.ownerId = newOwner;
        changed.push("owner");
      }
      publishSettingsChanged(em, room, changed);
      await em.flush();
      return { room: view(room) };
    },

    async setGuestPassword(req, ctx) {
      const em = callEm(ctx);
      const room = await requireRoom(em, req.roomId);
      if (room.type !== "PRIVATE") {
        throw new ConnectError("a guest password is for private rooms only", Code.InvalidArgument);
      }
      room.guestPasswordHash = await hashGuestPassword(req.password);
      room.guestPasswordLookup = guestPasswordLookup(svc.areas.rooms.ROOM_GUEST_PASSWORD_PEPPER, req.password);
      publishSettingsChanged(em, room, ["guestPassword"]);
      await em.flush();
      return { room: view(room) };
    },

    async removeGuestPassword(req, ctx) {
      const em = callEm(ctx);
      const room = await requireRoom(em, req.roomId);
      if (room.guestPasswordHash) {
        room.guestPasswordHash = null;
        room.guestPasswordLookup = null;
        publishSettingsChanged(em, room, ["guestPassword"]);
        await em.flush();
      }
      return { room: view(room) };
    },
  };
}
