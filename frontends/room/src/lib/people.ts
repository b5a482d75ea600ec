import { useQuery } from "@tanstack/react-query";
import type { Profile } from "@tt/proto/tt/user/v1/user_pb";
import { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import { useClient } from "@tt/web-kit/connect";

/** Spec 002 §9: profiles are fresh for 5 minutes and fetched in batches of at most 150. */
const PROFILE_STALE_MS = 5 * 60 * 1000;
const PROFILE_BATCH = 150;

/**
 * The profiles of the given users (one GetProfiles batch), so that people are shown by their nickname, never by
 * their id. `nameOf` answers undefined while they load and for a user the user service does not know.
 */
export function useProfiles(uuids: readonly string[]): {
  profileOf(uuid: string): Profile | undefined;
  profiles: readonly Profile[] | undefined;
  isPending: boolean;
} {
  const client = useClient(ProfileService);
  const users = [...new Set(uuids.filter(Boolean))].sort().slice(0, PROFILE_BATCH);
  const query = useQuery({
    queryKey: ["rooms", "profiles", ...users],
    queryFn: () => client.getProfiles({ users }),
    enabled: users.length > 0,
    staleTime: PROFILE_STALE_MS,
    placeholderData: (previous) => previous,
  });
  const profiles = query.data?.profiles;
  return {
    profiles,
    profileOf: (uuid) => profiles?.find((profile) => profile.uuid === uuid),
    isPending: users.length > 0 && query.isPending,
  };
}
