import type { ConnectRouter } from "@connectrpc/connect";
import { InfoService } from "@tt/proto/tt/room/v1/info_service_pb";
import type { RoomServiceContext } from "../context.ts";
import { infoRoutes } from "./info.ts";

/** The services of package tt.room.v1, one per area (one proto file and one routes file each). */
export const ROOM_SERVICES = [InfoService] as const;

/** Registers every service of the room service, each with its area's routes. */
export function registerRoomRoutes(router: ConnectRouter, svc: RoomServiceContext): void {
  router.service(InfoService, infoRoutes(svc));
}
