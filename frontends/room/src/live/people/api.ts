// The services the profile card and the people panel ask (issue 25): who follows whom, friends, blocks and the
// room's roles live in the room service; profiles in the user service; the room's listeners on the live stage.
import { BlockedUserService } from "@tt/proto/tt/room/v1/blocked_user_service_pb";
import { DjFanService } from "@tt/proto/tt/room/v1/dj_fan_service_pb";
import { FriendService } from "@tt/proto/tt/room/v1/friend_service_pb";
import { useClient } from "@tt/web-kit/connect";

export { BlockedUserService, DjFanService, FriendService };

export const useDjFanClient = () => useClient(DjFanService);
export const useFriendClient = () => useClient(FriendService);
export const useBlockClient = () => useClient(BlockedUserService);

/** Query keys of the people of the live room ("rooms" first: the room app's own lists). */
export const peopleKeys = {
  all: ["rooms", "people"] as const,
  profile: (user: string) => ["rooms", "people", "profile", user] as const,
  counts: (user: string) => ["rooms", "people", "counts", user] as const,
  friendship: (user: string) => ["rooms", "people", "friendship", user] as const,
  /** The caller's own lists, asked once and shared by the crowd, the panel and the settings' person picker. */
  followed: (me: string) => ["rooms", "people", "followed", me] as const,
  friends: (me: string) => ["rooms", "people", "friends", me] as const,
  roomRoles: (room: string) => ["rooms", "people", "roomRoles", room] as const,
  userRoles: (room: string, user: string) => ["rooms", "people", "userRoles", room, user] as const,
  listeners: (room: string) => ["rooms", "people", "listeners", room] as const,
};

/** The lists the services page: the caller's followed DJs (take ≤ 150) and friends (limit ≤ 100). */
export const FOLLOWED_TAKE = 150;
export const LIST_LIMIT = 100;
/** The room's roles in one page (owner, co-owners, moderators, DJs; moderators also see the restrictive ones). */
export const ROLE_LIMIT = 100;
/** Listeners per page: one profile batch each (spec 002 §9: at most 150 per GetProfiles). */
export const LISTENER_PAGE = 150;
/** The card's counts and relations are fresh for a minute (they change by the caller's own actions, which refresh). */
export const PEOPLE_STALE_MS = 60 * 1000;
