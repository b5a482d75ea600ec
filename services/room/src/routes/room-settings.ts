// The rooms area's settings (specification 001 §7 "Rooms"): the general settings and each other setting through its
// own call, ranked by who may change it; every change is announced as tt.room.settings.changed.
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type HandlerContext, type ServiceImpl } from "@connectrpc/connect";
import type { EntityManager } from "@mikro-orm/postgresql";
import { publishEvent } from "@tt/kit";
import { RoomConversationClearedSchema } from "@tt/proto/tt/room/v1/events_pb";
import type { RoomService } from "@tt/proto/tt/room/v1/room_service_pb";
import type { RoomServiceContext } from "../context.ts";
import { checkExternalUrl, MAX_PINNED_MESSAGES, type Member } from "../modules/rooms/room-rules.ts";
import { publishSettingsChanged, renameRoom, setLive } from "../modules/rooms/room-store.ts";
import type { Room } from "../modules/rooms/room.entity.ts";
import { checkProviders, CO_OWNER, MODERATOR, requireRank, roomAndCaller, viewOf } from "./room-access.ts";

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

export function roomSettingRoutes(svc: RoomServiceContext): Partial<ServiceImpl<typeof RoomService>> {
  const view = viewOf(svc);

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

  return {
    async updateRoom(req, ctx) {
      return changeRoom(ctx, req.id, CO_OWNER, (room, em) => applyGeneral(em, room, req));
    },

    async updateRoomInfrastructure(req, ctx) {
      return changeRoom(ctx, req.id, CO_OWNER, (room, em) => applyGeneral(em, room, req));
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
        if (!(await svc.accounts.hasCapability(member.userId, "promoteRoom", ctx.signal))) {
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

    async setExternalUrl(req, ctx) {
      const url = req.externalUrl === "" ? null : checkExternalUrl(req.externalUrl);
      return changeRoom(ctx, req.id, CO_OWNER, (room) => {
        if ((room.externalUrl ?? null) === url) return [];
        room.externalUrl = url;
        return ["externalUrl"];
      });
    },

    async linkGuildRoom(req, ctx) {
      if (req.guild === "") throw new ConnectError("guild missing in request", Code.InvalidArgument);
      return changeRoom(ctx, req.roomId, CO_OWNER, (room) => {
        if (room.discordGuild === req.guild) return [];
        room.discordGuild = req.guild;
        return ["discordGuild"];
      });
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
  };
}
