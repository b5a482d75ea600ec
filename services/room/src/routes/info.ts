import type { ServiceImpl } from "@connectrpc/connect";
import type { InfoService } from "@tt/proto/tt/room/v1/info_service_pb";
import type { RoomServiceContext } from "../context.ts";

/** Specification 001 §1: "The service API version is 1.2.23". */
export const ROOM_SERVICE_VERSION = "1.2.23";

export function infoRoutes(_svc: RoomServiceContext): ServiceImpl<typeof InfoService> {
  return {
    hello: () => ({ service: "room-service", version: ROOM_SERVICE_VERSION }),
  };
}
