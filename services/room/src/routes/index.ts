import type { ConnectRouter } from "@connectrpc/connect";
import { AdminService } from "@tt/proto/tt/room/v1/admin_service_pb";
import { InfoService } from "@tt/proto/tt/room/v1/info_service_pb";
import { RoomService } from "@tt/proto/tt/room/v1/room_service_pb";
import { RoomUserRoleService } from "@tt/proto/tt/room/v1/room_user_role_service_pb";
import { BlockedUserService } from "@tt/proto/tt/room/v1/blocked_user_service_pb";
import { CommunityService } from "@tt/proto/tt/room/v1/community_service_pb";
import { ContactBookService } from "@tt/proto/tt/room/v1/contact_book_service_pb";
import { DeviceService } from "@tt/proto/tt/room/v1/device_service_pb";
import { DjFanService } from "@tt/proto/tt/room/v1/dj_fan_service_pb";
import { EventService } from "@tt/proto/tt/room/v1/event_service_pb";
import { FriendService } from "@tt/proto/tt/room/v1/friend_service_pb";
import { NotificationService } from "@tt/proto/tt/room/v1/notification_service_pb";
import type { RoomServiceContext } from "../context.ts";
import { blockedUserRoutes } from "./blocked-users.ts";
import { communityRoutes } from "./communities.ts";
import { contactRoutes } from "./contact-book.ts";
import { deviceRoutes } from "./devices.ts";
import { djFanRoutes } from "./dj-fans.ts";
import { eventRoutes } from "./events.ts";
import { friendRoutes } from "./friends.ts";
import { notificationRoutes } from "./notifications.ts";
import { adminRoutes } from "./admin.ts";
import { infoRoutes } from "./info.ts";
import { roomUserRoleRoutes } from "./room-user-roles.ts";
import { roomListRoutes } from "./room-lists.ts";
import { roomPosterRoutes } from "./room-posters.ts";
import { roomSettingRoutes } from "./room-settings.ts";
import { roomVisitRoutes } from "./room-visits.ts";
import { roomRoutes } from "./rooms.ts";

/** The services of package tt.room.v1, one per area (one proto file and one routes file each), one per line. */
// prettier-ignore
export const ROOM_SERVICES = [
  InfoService,
  RoomService,
  RoomUserRoleService,
  AdminService,
  CommunityService,
  EventService,
  BlockedUserService,
  DeviceService,
  DjFanService,
  FriendService,
  ContactBookService,
  NotificationService,
] as const;

/** Registers every service of the room service, each with its area's routes. */
export function registerRoomRoutes(router: ConnectRouter, svc: RoomServiceContext): void {
  router.service(InfoService, infoRoutes(svc));
  // RoomService is one proto service in several files, one per part of the rooms area (the host refuses to start
  // while any RPC of it is missing).
  router.service(RoomService, {
    ...roomRoutes(svc),
    ...roomListRoutes(svc),
    ...roomVisitRoutes(svc),
    ...roomSettingRoutes(svc),
    ...roomPosterRoutes(svc),
  });
  router.service(RoomUserRoleService, roomUserRoleRoutes(svc));
  router.service(CommunityService, communityRoutes(svc));
  router.service(EventService, eventRoutes(svc));
  router.service(BlockedUserService, blockedUserRoutes(svc));
  router.service(DeviceService, deviceRoutes(svc));
  router.service(DjFanService, djFanRoutes(svc));
  router.service(FriendService, friendRoutes(svc));
  router.service(ContactBookService, contactRoutes(svc));
  router.service(NotificationService, notificationRoutes(svc));
  // The admin service's community and event calls (the people part) join these: spread their routes in here.
  router.service(AdminService, {
    ...adminRoutes(svc),
  });
}
