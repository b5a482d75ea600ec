import { useAppTranslation } from "@tt/web-kit";
import { useClient } from "@tt/web-kit/connect";
import { BlockedUserService } from "@tt/proto/tt/room/v1/blocked_user_service_pb";
import { DjFanService } from "@tt/proto/tt/room/v1/dj_fan_service_pb";
import { FriendService } from "@tt/proto/tt/room/v1/friend_service_pb";
import { en, es, SOCIAL_NAMESPACE } from "./locales.ts";

export { BlockedUserService, DjFanService, FriendService };

/** Spec 002 §9: follower lists come in pages of 12, and one fetch asks for at most 150. */
export const FOLLOWER_PAGE_SIZE = 12;
export const MAX_FOLLOWERS_PER_FETCH = 150;
export const FRIEND_PAGE_SIZE = 20;
export const INVITATION_PAGE_SIZE = 20;

/** The take of the next fetch: a page of 12, never more than 150 (when several pages are asked at once). */
export function followerTake(pages = 1): number {
  return Math.min(MAX_FOLLOWERS_PER_FETCH, Math.max(1, pages) * FOLLOWER_PAGE_SIZE);
}

export const socialKeys = {
  all: ["social"] as const,
  friends: (user: string) => ["social", "friends", user] as const,
  fans: (user: string) => ["social", "fans", user] as const,
  following: (user: string) => ["social", "following", user] as const,
  invitations: (kind: "for" | "from") => ["social", "invitations", kind] as const,
  profile: (user: string) => ["social", "profile", user] as const,
};

export const useFriendClient = () => useClient(FriendService);
export const useDjFanClient = () => useClient(DjFanService);
export const useBlockClient = () => useClient(BlockedUserService);

export function useSocialT() {
  return useAppTranslation(SOCIAL_NAMESPACE, { en, es });
}
