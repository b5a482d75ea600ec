// The rooms area's poster (specification 001 §7 "Rooms"): set from an uploaded image (stored as WebP in the media
// store) or removed, by the owner, co-owners and the global roles.
import { randomUUID } from "node:crypto";
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import { detectImageType } from "@tt/image-type";
import { callProvider } from "@tt/providers";
import type { RoomService } from "@tt/proto/tt/room/v1/room_service_pb";
import type { RoomServiceContext } from "../context.ts";
import { encodePoster, posterKey } from "../modules/rooms/poster.ts";
import { publishSettingsChanged } from "../modules/rooms/room-store.ts";
import { CO_OWNER, requireRank, roomAndCaller, viewOf } from "./room-access.ts";

export function roomPosterRoutes(svc: RoomServiceContext): Partial<ServiceImpl<typeof RoomService>> {
  const view = viewOf(svc);

  return {
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
  };
}
