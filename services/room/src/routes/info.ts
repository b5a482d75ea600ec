// The hello check, the info-admin figures and the room-state calls. The room-state ones answer from the live stage
// (the social service's PresenceService: who listens now, seconds of songs played) and fall back to what the room
// service knows (who joined in the last hour, live time from the live state) when the social service cannot be
// reached; `source` says which answered.
import type { ServiceImpl } from "@connectrpc/connect";
import { callEm, pingDatabase, sql } from "@tt/kit";
import type { InfoService } from "@tt/proto/tt/room/v1/info_service_pb";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { RoomServiceContext } from "../context.ts";
import { autoCommitDb } from "../db.ts";
import { playedSecondsOf } from "../modules/rooms/room-store.ts";
import { Room } from "../modules/rooms/room.entity.ts";
import { RoomVisit } from "../modules/rooms/room-visit.entity.ts";
import { viewRoom } from "./room-access.ts";
import { PRESENCE_WINDOW_MS } from "../modules/rooms/room-visits.ts";

/** Specification 001 §1: "The service API version is 1.2.23". */
export const ROOM_SERVICE_VERSION = "1.2.23";

export function infoRoutes(svc: RoomServiceContext): ServiceImpl<typeof InfoService> {
  return {
    hello: () => ({ service: "room-service", version: ROOM_SERVICE_VERSION }),

    async getPlayedSeconds(_req, ctx) {
      const live = await svc.presence.playedSeconds(ctx.signal);
      if (live !== undefined) return { playedSeconds: live };
      const em = callEm(ctx);
      const row = (await autoCommitDb(em)
        .selectFrom("room")
        .select((eb) => [
          sql<string>`coalesce(sum(${eb.ref("played_seconds")}), 0)::bigint`.as("done"),
          sql<string>`coalesce(sum(extract(epoch from (now() - ${eb.ref("live_since")})))::bigint, 0)`.as("running"),
        ])
        .executeTakeFirst()) ?? { done: 0, running: 0 };
      return { playedSeconds: BigInt(row.done) + BigInt(row.running) };
    },

    async getStatus(_req, ctx) {
      const em = callEm(ctx);
      const [rooms, publicRooms, privateRooms, liveRooms, promotedRooms] = await Promise.all([
        em.count(Room, {}),
        em.count(Room, { type: "PUBLIC" }),
        em.count(Room, { type: "PRIVATE" }),
        em.count(Room, { isLive: true }),
        em.count(Room, { promoted: true }),
      ]);
      return { rooms, publicRooms, privateRooms, liveRooms, promotedRooms };
    },

    async getRoomServiceStatus(_req, ctx) {
      let database = "ok";
      try {
        await pingDatabase(callEm(ctx));
      } catch {
        database = "unavailable";
      }
      return {
        service: "room-service",
        version: ROOM_SERVICE_VERSION,
        database,
        uptimeSeconds: BigInt(Math.floor((Date.now() - svc.startedAt.getTime()) / 1000)),
        startedAt: timestampFromDate(svc.startedAt),
      };
    },

    async getRoomState(req, ctx) {
      const { em, room } = await viewRoom(ctx, req.id);
      const live = await svc.presence.room(room.id, ctx.signal);
      const settings = {
        roomUuid: room.id,
        slug: room.slug,
        isLive: room.isLive ?? false,
        liveAudio: room.liveAudio ?? false,
        numberOfDjs: room.numberOfDjs,
        djType: room.djType,
      };
      if (live) return { ...settings, usersCount: live.users + live.guests, source: "social-service" };
      const usersCount = await em.count(RoomVisit, {
        roomId: room.id,
        visitedAt: { $gte: new Date(Date.now() - PRESENCE_WINDOW_MS) },
      });
      return {
        roomUuid: room.id,
        slug: room.slug,
        isLive: room.isLive ?? false,
        liveAudio: room.liveAudio ?? false,
        numberOfDjs: room.numberOfDjs,
        djType: room.djType,
        usersCount,
        source: "room-service",
      };
    },

    async getRoomPlayedTime(req, ctx) {
      const { room } = await viewRoom(ctx, req.id);
      const live = await svc.presence.room(room.id, ctx.signal);
      if (live) return { roomUuid: room.id, playedSeconds: live.playedSeconds };
      return { roomUuid: room.id, playedSeconds: BigInt(playedSecondsOf(room)) };
    },
  };
}
