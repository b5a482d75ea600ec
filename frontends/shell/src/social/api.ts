import { Code, ConnectError } from "@connectrpc/connect";
import { useQueries, useQuery } from "@tanstack/react-query";
import { queryKeys, useAppTranslation } from "@tt/web-kit";
import { useClient } from "@tt/web-kit/connect";
import { AvatarService } from "@tt/proto/tt/merch/v1/avatar_service_pb";
import { BlockedUserService } from "@tt/proto/tt/room/v1/blocked_user_service_pb";
import { DjFanService } from "@tt/proto/tt/room/v1/dj_fan_service_pb";
import { FriendService } from "@tt/proto/tt/room/v1/friend_service_pb";
import { StageService } from "@tt/proto/tt/social/v1/stage_service_pb";
import { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import type { Profile } from "@tt/proto/tt/user/v1/user_pb";
import { en, es, SOCIAL_NAMESPACE } from "./locales.ts";

export { BlockedUserService, DjFanService, FriendService, StageService };

/** Spec 002 §9: follower lists come in pages of 12, and one fetch asks for at most 150. */
export const FOLLOWER_PAGE_SIZE = 12;
export const MAX_FOLLOWERS_PER_FETCH = 150;
export const FRIEND_PAGE_SIZE = 20;
/** The room service's most friends per ListFriends (limit 1..100). */
export const MAX_FRIENDS_PER_FETCH = 100;
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
  /** Every user of one of the user's lists (all its pages): the people page's search and its fans' follow back. */
  every: (kind: "friends" | "fans" | "following", user: string) => ["social", "every", kind, user] as const,
  /** The public rooms a user is in now (the live stage's ListUserRooms). */
  rooms: (user: string) => ["social", "rooms", user] as const,
};

/**
 * One user's public profile (GetProfile), under that user's key of the profile family (queryKeys.profile): what
 * invalidates the user's profile there reaches it, as it reaches the header's name and avatar (the shop's choice of
 * avatar does).
 */
export const publicProfileKey = (user: string) => [...queryKeys.profile(user), "public"] as const;
/** The start of every profile batch's key (GetProfiles): the batch's uuids follow. */
export const profileBatchPrefix = ["profile", "batch"] as const;

/** Spec 002 §9: one profile batch asks for at most 150 users. */
export const PROFILE_BATCH = 150;
const HOUR = 3_600_000;

export const useFriendClient = () => useClient(FriendService);
export const useDjFanClient = () => useClient(DjFanService);
export const useBlockClient = () => useClient(BlockedUserService);
export const useStageClient = () => useClient(StageService);

export function useSocialT() {
  return useAppTranslation(SOCIAL_NAMESPACE, { en, es });
}

/**
 * The profiles of `users` (names and avatars for a list), in batches of 150, cached like the profile family. A
 * user the service does not know is missing from the map.
 */
export function useProfiles(users: readonly string[]): { profiles: Map<string, Profile>; pending: boolean } {
  const client = useClient(ProfileService);
  const unique = [...new Set(users)].sort();
  const batches: string[][] = [];
  for (let start = 0; start < unique.length; start += PROFILE_BATCH) {
    batches.push(unique.slice(start, start + PROFILE_BATCH));
  }
  const results = useQueries({
    queries: batches.map((batch) => ({
      queryKey: [...profileBatchPrefix, ...batch],
      queryFn: async () => (await client.getProfiles({ users: batch })).profiles,
      staleTime: 5 * 60_000,
    })),
  });
  const profiles = new Map<string, Profile>();
  for (const result of results) for (const profile of result.data ?? []) profiles.set(profile.uuid, profile);
  return { profiles, pending: results.some((result) => result.isPending) };
}

/** One user's public profile; null when the service does not know them. */
export function useProfile(user: string) {
  const client = useClient(ProfileService);
  return useQuery({
    queryKey: publicProfileKey(user),
    queryFn: async () => {
      try {
        return (await client.getProfile({ id: user })).profile ?? null;
      } catch (error) {
        if (error instanceof ConnectError && error.code === Code.NotFound) return null;
        throw error;
      }
    },
    enabled: Boolean(user),
  });
}

/** The image of the shop avatar `slug` (merch service), cached an hour; undefined while unknown or for none. */
export function useAvatarImage(slug: string | undefined): string | undefined {
  const client = useClient(AvatarService);
  const image = useQuery({
    queryKey: ["merch", "avatar", slug ?? ""],
    queryFn: async () => (await client.getAvatar({ slug: slug ?? "" })).avatar?.imageUrl ?? "",
    enabled: Boolean(slug),
    staleTime: HOUR,
    retry: false,
  });
  return image.data || undefined;
}
