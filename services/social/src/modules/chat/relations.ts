// What the chat asks other services (docs/new-service.md §11): the room service (which room, the caller's roles
// in it, friends and followed DJs), the user service (names, avatars, colours, badges) and the playlist service
// (song cards and playlist previews for links). Rooms and profiles are cached briefly; roles never are, so a
// chatDisabled grant or a ban applies to the next message. When the room service cannot be reached (issue 28), a
// room and a user's standing in it are served as last known (at most STALE_MAX_MS old); the stage's admission,
// which runs first, keeps private rooms closed.
import { Code, ConnectError, type Client } from "@connectrpc/connect";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { ServiceDeps } from "@tt/kit";
import type { Logger } from "pino";
import { DjFanService } from "@tt/proto/tt/room/v1/dj_fan_service_pb";
import { FriendService } from "@tt/proto/tt/room/v1/friend_service_pb";
import { RoomService } from "@tt/proto/tt/room/v1/room_service_pb";
import { RoomUserRoleService } from "@tt/proto/tt/room/v1/room_user_role_service_pb";
import { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import type { Profile } from "@tt/proto/tt/user/v1/user_pb";
import { CrateService, type CratePreview } from "@tt/proto/tt/playlist/v1/crate_service_pb";
import { SongDataService } from "@tt/proto/tt/playlist/v1/song_data_service_pb";
import type { Song } from "@tt/proto/tt/playlist/v1/song_pb";
import { LastGood, OutageLog, roomServiceUnavailable, unreachable } from "../last-good.ts";

export interface ChatRoom {
  uuid: string;
  slug: string;
  clearedAt?: Date;
}

/** The room roles that make a moderator of the room's chat (002 §6 "the moderator list"), and the platform's. */
const MODERATOR_ROLES = new Set(["owner", "coOwner", "moderator", "globalModerator", "staff", "superUser", "admin"]);
/** Room roles shown as a message's badges. */
const BADGE_ROLES = ["owner", "coOwner", "moderator", "dj", "globalModerator", "staff"];

export interface RoomStanding {
  roles: string[];
  moderator: boolean;
  /** Why the user may not write in the room now, or undefined. */
  refusal?: string;
  badges: string[];
}

export interface ChatRelations {
  room(idOrSlug: string, signal?: AbortSignal): Promise<ChatRoom>;
  standing(roomUuid: string, userUuid: string, platformRole: string, signal?: AbortSignal): Promise<RoomStanding>;
  profile(userUuid: string, signal?: AbortSignal): Promise<Profile | undefined>;
  profiles(userUuids: string[], signal?: AbortSignal): Promise<Map<string, Profile>>;
  /** Friends plus followed DJs (002 §6), or undefined when the room service could not say. */
  friends(userUuid: string, signal?: AbortSignal): Promise<Set<string> | undefined>;
  /** Mutual friends only (no followed DJs), or undefined when the room service could not say. */
  mutualFriends(userUuid: string, signal?: AbortSignal): Promise<Set<string> | undefined>;
  songByLink(link: string, signal?: AbortSignal): Promise<Song | undefined>;
  /** An ordinary crate's preview (playlist service), or undefined when there is none to show. */
  cratePreview(crateUuid: string, signal?: AbortSignal): Promise<CratePreview | undefined>;
}

const ROOM_TTL_MS = 10_000;
const PROFILE_TTL_MS = 30_000;
const CACHE_MAX = 5_000;

class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();
  constructor(private readonly ttlMs: number) {}
  get(key: string): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.until < Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return hit.value;
  }
  set(key: string, value: V): void {
    if (this.entries.size >= CACHE_MAX) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { value, until: Date.now() + this.ttlMs });
  }
}

function isNotFound(err: unknown): boolean {
  return err instanceof ConnectError && err.code === Code.NotFound;
}

/**
 * A public room as the live stage holds it (shared by every instance), for a room this instance never had from the
 * room service: while that service cannot be reached, a new instance goes on from it.
 */
export type StageRoomLookup = (roomUuid: string) => Promise<ChatRoom | undefined>;

export function createChatRelations(
  clients: ServiceDeps["clients"],
  logger?: Logger,
  roomTtlMs = ROOM_TTL_MS,
  fromStage?: StageRoomLookup,
): ChatRelations {
  const rooms: Client<typeof RoomService> = clients.get(RoomService);
  const roles: Client<typeof RoomUserRoleService> = clients.get(RoomUserRoleService);
  const friendsClient: Client<typeof FriendService> = clients.get(FriendService);
  const fans: Client<typeof DjFanService> = clients.get(DjFanService);
  const profilesClient: Client<typeof ProfileService> = clients.get(ProfileService);
  const songData: Client<typeof SongDataService> = clients.get(SongDataService);
  const crates: Client<typeof CrateService> = clients.get(CrateService);
  const roomCache = new TtlCache<ChatRoom>(roomTtlMs);
  const profileCache = new TtlCache<Profile>(PROFILE_TTL_MS);
  const lastRooms = new LastGood<ChatRoom>();
  const lastRoles = new LastGood<string[]>();
  const outage = new OutageLog(logger);

  async function mutualFriendsOf(userUuid: string, signal?: AbortSignal): Promise<Set<string>> {
    const set = new Set<string>();
    for (let offset = 0; offset < 1000; offset += 100) {
      const page = await friendsClient.listFriends({ id: userUuid, limit: 100, offset }, { signal });
      for (const f of page.friends) set.add(f.friendId.toLowerCase());
      if (page.friends.length < 100) break;
    }
    return set;
  }

  return {
    async room(idOrSlug, signal) {
      const key = idOrSlug.toLowerCase();
      const hit = roomCache.get(key);
      if (hit) return hit;
      try {
        const { room } = await rooms.getServiceRoom({ id: idOrSlug }, { signal });
        if (!room) throw new ConnectError("room not found", Code.NotFound);
        const value: ChatRoom = {
          uuid: room.uuid.toLowerCase(),
          slug: room.slug,
          clearedAt: room.conversationClearedAt ? timestampDate(room.conversationClearedAt) : undefined,
        };
        roomCache.set(key, value);
        roomCache.set(value.uuid, value);
        lastRooms.set(key, value);
        lastRooms.set(value.uuid, value);
        return value;
      } catch (err) {
        if (isNotFound(err)) {
          lastRooms.delete(key);
          throw new ConnectError("room not found", Code.NotFound);
        }
        if (!unreachable(err, signal)) throw err;
        const last = lastRooms.get(key) ?? (await fromStage?.(key));
        if (!last) throw roomServiceUnavailable(err);
        outage.warn({ err, room: last.uuid }, "room service unreachable: chat goes on with the rooms last known");
        return last;
      }
    },

    async standing(roomUuid, userUuid, platformRole, signal) {
      const key = `${roomUuid} ${userUuid}`;
      let roomRoles: string[];
      try {
        ({ roles: roomRoles } = await roles.getUserRoomRoles({ roomId: roomUuid, userId: userUuid }, { signal }));
        lastRoles.set(key, roomRoles);
      } catch (err) {
        if (!unreachable(err, signal)) throw err;
        // The caller was admitted (the stage's admission ran first): the last roles known, or a listener's.
        roomRoles = lastRoles.get(key) ?? [];
        outage.warn({ err, room: roomUuid }, "room service unreachable: chat goes on with the roles last known");
      }
      const all = new Set([...roomRoles, platformRole]);
      const moderator = [...all].some((r) => MODERATOR_ROLES.has(r));
      let refusal: string | undefined;
      // The room service leaves expired grants out, so a chatDisabled role here is one in effect (002 §4).
      if (all.has("banned") || all.has("kicked")) refusal = "you are banned from this room";
      else if (all.has("chatDisabled")) refusal = "chat is disabled for you in this room";
      return { roles: [...all], moderator, refusal, badges: BADGE_ROLES.filter((r) => all.has(r)) };
    },

    async profile(userUuid, signal) {
      const hit = profileCache.get(userUuid);
      if (hit) return hit;
      try {
        const { profile } = await profilesClient.getServiceProfile({ id: userUuid }, { signal });
        if (profile) profileCache.set(userUuid, profile);
        return profile;
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
    },

    async profiles(userUuids, signal) {
      const out = new Map<string, Profile>();
      const missing: string[] = [];
      for (const u of new Set(userUuids)) {
        const hit = profileCache.get(u);
        if (hit) out.set(u, hit);
        else missing.push(u);
      }
      for (let i = 0; i < missing.length; i += 150) {
        const { profiles } = await profilesClient.getProfiles({ users: missing.slice(i, i + 150) }, { signal });
        for (const p of profiles) {
          profileCache.set(p.uuid.toLowerCase(), p);
          out.set(p.uuid.toLowerCase(), p);
        }
      }
      return out;
    },

    async mutualFriends(userUuid, signal) {
      try {
        return await mutualFriendsOf(userUuid, signal);
      } catch {
        return undefined;
      }
    },

    async friends(userUuid, signal) {
      try {
        // At most 1,000 friends and 1,500 followed DJs are considered: a conversation with anyone beyond
        // falls in OTHERS.
        const set = await mutualFriendsOf(userUuid, signal);
        for (let skip = 0; skip < 1500; skip += 150) {
          const page = await fans.listDjsFollowed({ id: userUuid, take: 150, skip }, { signal });
          for (const f of page.djFans) set.add(f.djId.toLowerCase());
          if (page.djFans.length < 150) break;
        }
        return set;
      } catch {
        return undefined;
      }
    },

    async songByLink(link, signal) {
      try {
        const { song } = await songData.getSongDataByLink({ link }, { signal });
        return song && song.isrc !== "" ? song : undefined;
      } catch {
        // A link that does not resolve stays text (002 §5: only links to a song with an isrc become cards).
        return undefined;
      }
    },

    async cratePreview(crateUuid, signal) {
      try {
        return (await crates.serviceGetCratePreview({ crateUuid }, { signal })).preview;
      } catch {
        // An unknown or special crate, or the playlist service away: the link stays text, the message is sent.
        return undefined;
      }
    },
  };
}
