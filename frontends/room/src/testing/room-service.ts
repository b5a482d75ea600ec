import { create } from "@bufbuild/protobuf";
import { timestampDate, timestampFromDate, timestampNow } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type ConnectRouter, type HandlerContext } from "@connectrpc/connect";
import { CommunitySchema, type Community } from "@tt/proto/tt/room/v1/community_service_pb";
import { EventSchema } from "@tt/proto/tt/room/v1/event_service_pb";
import {
  RoomLiveSchema,
  RoomSchema,
  RoomUserRoleSchema,
  type Room,
  type RoomUserRole,
} from "@tt/proto/tt/room/v1/room_pb";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { DjFanService } from "@tt/proto/tt/room/v1/dj_fan_service_pb";
import { FriendService } from "@tt/proto/tt/room/v1/friend_service_pb";
import { StageService } from "@tt/proto/tt/social/v1/stage_service_pb";
import { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import { AdminService, CommunityService, EventService, RoomService, RoomUserRoleService } from "../api.ts";

export const OWNER_UUID = "00000000-0000-4000-8000-00000000000a";
export const OTHER_UUID = "00000000-0000-4000-8000-00000000000b";
export const FRIEND_UUID = "00000000-0000-4000-8000-00000000000c";
/** The users' nicknames, as the user service's profiles have them. */
export const NICKNAMES: Record<string, string> = {
  [OWNER_UUID]: "Olivia",
  [OTHER_UUID]: "Oscar",
  [FRIEND_UUID]: "Frida",
};

/** A kit's session token for a user of this fake: the fake reads the caller from it. */
export const tokenOf = (userUuid: string) => `t:${userUuid}`;

export interface TestRoomService {
  routes: (router: ConnectRouter) => void;
  rooms: Room[];
  grants: RoomUserRole[];
  /** Every call in order, by method name. */
  calls: string[];
  addRoom(name: string, owner?: string, init?: MessageInitShape<typeof RoomSchema>): Room;
  addCommunity(name: string, roomIds: string[], members?: string[]): Community;
  /** A community's members, as the service holds them (a test may change them behind the page's back). */
  membersOf(id: string): string[];
  /** Who is in each room now (room uuid → user uuids), as the stage's listener list answers it. */
  listeners: Map<string, string[]>;
  /** Each user's friends (user uuid → user uuids), both ways. */
  friends: Map<string, string[]>;
  /** The booth of each live room (room uuid → its DJs and the song playing), as the live stage answers it. */
  booths: Map<string, { djs: string[]; song?: { trackName: string; artistName: string } }>;
}

let counter = 0;
const uuid = () => `00000000-0000-4000-9000-${String(++counter).padStart(12, "0")}`;
const slugOf = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

/**
 * A small, honest in-memory room service for the room app's component tests, served through Connect's router
 * transport: the real protocol and shapes, the server's messages for the refusals the screens show.
 */
export function createTestRoomService(): TestRoomService {
  const rooms: Room[] = [];
  const grants: RoomUserRole[] = [];
  const calls: string[] = [];
  const listeners = new Map<string, string[]>();
  const friends = new Map<string, string[]>();
  const booths = new Map<string, { djs: string[]; song?: { trackName: string; artistName: string } }>();
  const communities: Array<{ community: Community; rooms: string[]; members: string[] }> = [];
  const addCommunity = (name: string, roomIds: string[], members: string[] = []) => {
    const community = create(CommunitySchema, { id: uuid(), name, slug: slugOf(name), memberCount: members.length });
    communities.push({ community, rooms: roomIds, members: [...members] });
    return community;
  };
  const callerOf = (context: HandlerContext): string | undefined => {
    const header = context.requestHeader.get("authorization") ?? "";
    const token = header.replace(/^Bearer /, "");
    return token.startsWith("t:") ? token.slice(2) : undefined;
  };
  const find = (id: string) => {
    const room = rooms.find((r) => r.uuid === id || r.slug === id);
    if (!room) throw new ConnectError("Room not found", Code.NotFound);
    return room;
  };
  const live = (grant: RoomUserRole) => !grant.expiresAt || timestampDate(grant.expiresAt) > new Date();
  const rolesOf = (room: Room, user: string | undefined): string[] => {
    if (!user) return ["guest"];
    const roles = grants.filter((g) => g.roomUuid === room.uuid && g.userUuid === user && live(g)).map((g) => g.role);
    if (room.ownerUuid === user) roles.unshift("owner");
    return roles.length ? roles : ["user"];
  };
  const moderates = (room: Room, user: string | undefined) =>
    rolesOf(room, user).some((r) => ["owner", "coOwner", "moderator"].includes(r));
  const mustModerate = (room: Room, context: HandlerContext) => {
    if (!moderates(room, callerOf(context)))
      throw new ConnectError("Only the room's owners and moderators can do this", Code.PermissionDenied);
  };
  const addRoom = (name: string, owner = OWNER_UUID, init: MessageInitShape<typeof RoomSchema> = {}) => {
    const room = create(RoomSchema, {
      uuid: uuid(),
      slug: slugOf(name),
      name,
      ownerUuid: owner,
      type: "PUBLIC",
      design: "CLUB",
      djType: "EVERYONE",
      numberOfDjs: 5,
      createdAt: timestampNow(),
      updatedAt: timestampNow(),
    });
    Object.assign(room, init);
    rooms.push(room);
    return room;
  };
  // A list's cards carry the room's live summary (Room.live) when it has listeners or a song, as the room service's do.
  const withLive = (room: Room): Room => {
    const booth = booths.get(room.uuid);
    const count = listeners.get(room.uuid)?.length ?? 0;
    if (count === 0 && !booth?.song) return room;
    return {
      ...room,
      live: create(RoomLiveSchema, {
        listeners: count,
        djUuids: booth?.djs ?? [],
        ...(booth?.song
          ? { nowPlaying: { title: booth.song.trackName, artist: booth.song.artistName, djUuid: booth.djs[0] ?? "" } }
          : {}),
      }),
    };
  };
  const page = (list: Room[], limit: number, offset: number) => ({
    rooms: list.slice(offset, offset + (limit || 20)).map(withLive),
    total: list.length,
  });
  const enter = (method: string) => calls.push(method);

  const routes = (router: ConnectRouter) => {
    router.service(RoomService, {
      listPublicRooms: ({ limit, offset, search }) => {
        enter("ListPublicRooms");
        const list = rooms.filter((r) => r.type === "PUBLIC" && r.name.toLowerCase().includes(search.toLowerCase()));
        return page(list, limit, offset);
      },
      listPromotedRooms: ({ limit, offset }) => {
        enter("ListPromotedRooms");
        return page(
          rooms.filter((r) => r.promoted),
          limit,
          offset,
        );
      },
      listMyRooms: ({ limit, offset }, context) => {
        enter("ListMyRooms");
        const me = callerOf(context);
        if (!me) throw new ConnectError("Unauthorized", Code.Unauthenticated);
        return page(
          rooms.filter((r) => moderates(r, me)),
          limit,
          offset,
        );
      },
      listRecentRooms: ({ limit, offset }) => {
        enter("ListRecentRooms");
        return page([], limit, offset);
      },
      createRoom: (request, context) => {
        enter("CreateRoom");
        const me = callerOf(context);
        if (!me) throw new ConnectError("Unauthorized", Code.Unauthenticated);
        if (rooms.some((r) => r.slug === slugOf(request.name)))
          throw new ConnectError("A room with this name already exists", Code.AlreadyExists);
        const room = addRoom(request.name, me, {
          description: request.description,
          type: request.type || "PUBLIC",
          design: request.design || "CLUB",
          djType: request.djType || "EVERYONE",
          numberOfDjs: request.numberOfDjs || 5,
          musicProviders: request.musicProviders,
          externalUrl: request.externalUrl,
        });
        return { room };
      },
      listMultipleRooms: ({ room }) => {
        enter("ListMultipleRooms");
        return { rooms: rooms.filter((r) => room.includes(r.uuid)) };
      },
      getRoom: ({ id }) => {
        enter("GetRoom");
        return { room: find(id) };
      },
      joinRoom: ({ id, guestPassword }, context) => {
        enter("JoinRoom");
        const room = find(id);
        const me = callerOf(context);
        const roles = rolesOf(room, me);
        if (roles.includes("banned")) throw new ConnectError("You are banned from this room", Code.PermissionDenied);
        if (roles.includes("kicked")) {
          const kick = grants.find((g) => g.roomUuid === room.uuid && g.userUuid === me && g.role === "kicked");
          const until = kick?.expiresAt
            ? `until ${timestampDate(kick.expiresAt).toISOString()}`
            : "until further notice";
          throw new ConnectError(`You are kicked from this room ${until}`, Code.PermissionDenied);
        }
        if (room.type === "PRIVATE" && !moderates(room, me) && guestPassword !== "letmein")
          throw new ConnectError("This room is private", Code.PermissionDenied);
        const isModerator = moderates(room, me);
        return {
          room,
          roles,
          permissions: { canChat: !roles.includes("chatDisabled") && Boolean(me), canDj: Boolean(me), isModerator },
          numberOfDjs: room.numberOfDjs,
          djType: room.djType,
          liveStage: { url: "", status: "pending" },
        };
      },
      updateRoom: (request, context) => {
        enter("UpdateRoom");
        const room = find(request.id);
        mustModerate(room, context);
        if (request.name !== undefined) room.name = request.name;
        if (request.description !== undefined) room.description = request.description;
        room.updatedAt = timestampNow();
        return { room };
      },
      setDjSeats: ({ id, numberOfDjs }, context) => {
        enter("SetDjSeats");
        const room = find(id);
        mustModerate(room, context);
        if (numberOfDjs < 1 || numberOfDjs > 10)
          throw new ConnectError("Seats must be between 1 and 10", Code.InvalidArgument);
        room.numberOfDjs = numberOfDjs;
        return { room };
      },
      setDjType: ({ id, djType }, context) => {
        enter("SetDjType");
        const room = find(id);
        mustModerate(room, context);
        room.djType = djType;
        return { room };
      },
      uploadPoster: ({ id, file }, context) => {
        enter("UploadPoster");
        const room = find(id);
        mustModerate(room, context);
        if (!file?.contentType.startsWith("image/"))
          throw new ConnectError("The poster must be an image", Code.InvalidArgument);
        room.posterUrl = `/media/posters/${room.uuid}/${file.filename}`;
        return { room };
      },
      setPinnedMessages: ({ id, pinnedMessages }, context) => {
        enter("SetPinnedMessages");
        const room = find(id);
        mustModerate(room, context);
        room.pinnedMessages = pinnedMessages;
        return { room };
      },
    });
    router.service(RoomUserRoleService, {
      getUserRoomRoles: ({ roomId, userId }) => {
        enter("GetUserRoomRoles");
        return { roles: rolesOf(find(roomId), userId), grants: [] };
      },
      listRoomRoles: ({ roomId, limit, offset }) => {
        enter("ListRoomRoles");
        const list = grants.filter((g) => g.roomUuid === roomId && live(g));
        return { roles: list.slice(offset, offset + (limit || 50)), total: list.length };
      },
      grantRoomRole: ({ roomId, userId, role, expiresAt }, context) => {
        enter("GrantRoomRole");
        const room = find(roomId);
        mustModerate(room, context);
        if (expiresAt && timestampDate(expiresAt) <= new Date())
          throw new ConnectError("expiresAt must be in the future", Code.InvalidArgument);
        const grant = create(RoomUserRoleSchema, {
          id: uuid(),
          roomUuid: roomId,
          userUuid: userId,
          role,
          grantedBy: callerOf(context) ?? "",
          createdAt: timestampNow(),
          ...(expiresAt ? { expiresAt } : {}),
        });
        grants.push(grant);
        return { role: grant };
      },
      kickUserFromRoom: ({ roomId, userId, until }, context) => {
        enter("KickUserFromRoom");
        mustModerate(find(roomId), context);
        const expiresAt = until ?? timestampFromDate(new Date(Date.now() + 15 * 60_000));
        grants.push(
          create(RoomUserRoleSchema, { id: uuid(), roomUuid: roomId, userUuid: userId, role: "kicked", expiresAt }),
        );
        return {};
      },
      removeRoomRole: ({ roomId, userId, role }, context) => {
        enter("RemoveRoomRole");
        mustModerate(find(roomId), context);
        const index = grants.findIndex((g) => g.roomUuid === roomId && g.userUuid === userId && g.role === role);
        if (index < 0) throw new ConnectError("Role not found", Code.NotFound);
        grants.splice(index, 1);
        return {};
      },
    });
    router.service(CommunityService, {
      listUserCommunities: (_request, context) => {
        const me = callerOf(context) ?? "";
        const list = communities.filter((c) => c.members.includes(me)).map((c) => c.community);
        return { communities: list, total: list.length };
      },
      getCommunity: ({ id }) => {
        const found = communities.find((c) => c.community.id === id);
        if (!found) throw new ConnectError("Community not found", Code.NotFound);
        return { community: found.community };
      },
      listCommunityRooms: ({ id, limit, offset }) => {
        const found = communities.find((c) => c.community.id === id);
        if (!found) throw new ConnectError("Community not found", Code.NotFound);
        return {
          rooms: found.rooms.slice(offset, offset + (limit || 20)).map((roomId) => ({ roomId })),
          total: found.rooms.length,
        };
      },
      joinCommunity: ({ id }, context) => {
        const me = callerOf(context);
        const found = communities.find((c) => c.community.id === id);
        if (!me || !found) throw new ConnectError("Community not found", Code.NotFound);
        if (found.members.includes(me)) throw new ConnectError("Already a member", Code.AlreadyExists);
        found.members.push(me);
        found.community.memberCount = found.members.length;
        return { member: { userId: me } };
      },
      leaveCommunity: ({ id }, context) => {
        const me = callerOf(context);
        const found = communities.find((c) => c.community.id === id);
        if (!me || !found) throw new ConnectError("Community not found", Code.NotFound);
        if (!found.members.includes(me)) throw new ConnectError("Not a member", Code.NotFound);
        found.members.splice(found.members.indexOf(me), 1);
        found.community.memberCount = found.members.length;
        return {};
      },
    });
    router.service(ProfileService, {
      getProfiles: ({ users }) => ({
        profiles: users.filter((uuid) => NICKNAMES[uuid]).map((uuid) => ({ uuid, nickname: NICKNAMES[uuid] })),
      }),
    });
    router.service(EventService, {
      listUpcomingEvents: () => ({
        events: [
          create(EventSchema, {
            id: uuid(),
            name: "Friday set",
            slug: "friday-set",
            startsAt: timestampFromDate(new Date(Date.UTC(2030, 5, 14, 12))),
            endsAt: timestampFromDate(new Date(Date.UTC(2030, 5, 14, 14))),
          }),
        ],
        total: 1,
      }),
    });
    router.service(AdminService, {});
    router.service(StageService, {
      listLiveRooms: ({ roomUuids, limit }) => {
        enter("ListLiveRooms");
        const liveOnes = rooms
          .filter((r) => r.type === "PUBLIC" && (listeners.has(r.uuid) || booths.get(r.uuid)?.song))
          .map((r) => {
            const booth = booths.get(r.uuid);
            return {
              room: { uuid: r.uuid, slug: r.slug, name: r.name, type: r.type, design: r.design },
              listeners: { users: listeners.get(r.uuid)?.length ?? 0, guests: 0 },
              djUuids: booth?.djs ?? [],
              ...(booth?.song ? { play: { song: booth.song, djUuid: booth.djs[0] ?? "" } } : {}),
            };
          });
        if (roomUuids.length > 0) return { rooms: liveOnes.filter((r) => roomUuids.includes(r.room.uuid)) };
        return { rooms: liveOnes.sort((a, b) => b.listeners.users - a.listeners.users).slice(0, limit || 12) };
      },
      listListeners: ({ room, limit, offset }) => {
        const users = listeners.get(find(room).uuid) ?? [];
        return {
          listeners: users.slice(offset, offset + (limit || 50)).map((userUuid) => ({ userUuid })),
          total: users.length,
        };
      },
    });
    router.service(FriendService, {
      listFriends: ({ id }) => {
        const theirs = friends.get(id) ?? [];
        return { friends: theirs.map((friendId) => ({ userId: id, friendId })), total: theirs.length };
      },
    });
    router.service(DjFanService, { listMyFollowedDjs: () => ({ djFans: [], total: 0 }) });
  };
  const membersOf = (id: string) => communities.find((c) => c.community.id === id)?.members ?? [];
  return { routes, rooms, grants, calls, addRoom, addCommunity, membersOf, listeners, friends, booths };
}
