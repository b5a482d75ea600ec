import type { Client } from "@connectrpc/connect";
import { wireNamesOf } from "./lib/wire.ts";
import { AdminService } from "@tt/proto/tt/room/v1/admin_service_pb";
import { CommunityService } from "@tt/proto/tt/room/v1/community_service_pb";
import { EventService } from "@tt/proto/tt/room/v1/event_service_pb";
import { DjTypeSchema, RoomDesignSchema, RoomRoleSchema, RoomTypeSchema } from "@tt/proto/tt/room/v1/room_pb";
import type { Room, RoomUserRole } from "@tt/proto/tt/room/v1/room_pb";
import { RoomService } from "@tt/proto/tt/room/v1/room_service_pb";
import { RoomUserRoleService } from "@tt/proto/tt/room/v1/room_user_role_service_pb";
import { MusicProviderSchema } from "@tt/proto/tt/common/v1/music_provider_pb";
import { useClient } from "@tt/web-kit/connect";

export { AdminService, CommunityService, EventService, RoomService, RoomUserRoleService };
export type { Room, RoomUserRole };

export type RoomClient = Client<typeof RoomService>;

/** The directory's page size (the service answers at most its ROOM_LIST_MAX_LIMIT, 100 by default). */
export const ROOM_PAGE_SIZE = 20;
export const COMMUNITY_PAGE_SIZE = 20;
export const EVENT_PAGE_SIZE = 20;
export const ROLE_PAGE_SIZE = 50;

/** DJ seats (docs/decisions/0114-room-seats-and-enumerations.md): 1–10, 5 by default as turntable.fm had. */
export const MIN_DJ_SEATS = 1;
export const MAX_DJ_SEATS = 10;
export const DEFAULT_DJ_SEATS = 5;
export const MAX_PINNED_MESSAGES = 10;

// The enumerations travel as their wire names, read from the protos (never retyped here).
export const ROOM_TYPES = wireNamesOf(RoomTypeSchema);
export const ROOM_DESIGNS = wireNamesOf(RoomDesignSchema);
export const DJ_TYPES = wireNamesOf(DjTypeSchema);
export const MUSIC_PROVIDERS = wireNamesOf(MusicProviderSchema);
export const ROOM_ROLES = wireNamesOf(RoomRoleSchema);

/** The roles an owner or moderator grants from the settings page (the others are global or derived). */
export const GRANTABLE_ROLES = [
  "coOwner",
  "moderator",
  "dj",
  "banned",
  "kicked",
  "chatDisabled",
  "djDisabled",
] as const;

/** Query keys of the room app; "rooms" lists change by the user's own actions, which invalidate them. */
export const roomKeys = {
  all: ["rooms"] as const,
  list: (kind: string, search: string, offset: number) => ["rooms", "list", kind, search, offset] as const,
  room: (id: string) => ["rooms", "room", id] as const,
  /** The live stage of rooms (the directory's page, or the busiest rooms when none are named). */
  live: (roomUuids: readonly string[]) => ["rooms", "live-rooms", ...roomUuids] as const,
  join: (id: string) => ["rooms", "join", id] as const,
  myRoles: (roomId: string, userId: string) => ["rooms", "myRoles", roomId, userId] as const,
  roles: (roomId: string, offset: number) => ["rooms", "roles", roomId, offset] as const,
  communities: (offset: number) => ["rooms", "communities", offset] as const,
  community: (id: string) => ["rooms", "community", id] as const,
  events: (kind: string, offset: number) => ["rooms", "events", kind, offset] as const,
};

export const useRoomClient = () => useClient(RoomService);
export const useRoleClient = () => useClient(RoomUserRoleService);
export const useRoomAdminClient = () => useClient(AdminService);
export const useCommunityClient = () => useClient(CommunityService);
export const useEventClient = () => useClient(EventService);

/** Roles that may open a room's settings (owner, co-owner, moderator and the global ones). */
export const SETTINGS_ROLES = ["owner", "coOwner", "moderator", "globalModerator", "staff", "superUser"];
