import { useQueries } from "@tanstack/react-query";
import type { Profile } from "@tt/proto/tt/user/v1/user_pb";
import { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import { useClient } from "@tt/web-kit/connect";
import { useMemo } from "react";

/** Spec 002 §9: profiles are fresh for 5 minutes and fetched in batches of at most 150. */
const PROFILE_STALE_MS = 5 * 60 * 1000;
const PROFILE_BATCH = 150;
/** More than this many people are not asked at once (a dozen batches). */
const PROFILE_MAX = PROFILE_BATCH * 12;

/**
 * The profiles of the given users (GetProfiles batches of at most 150), so that people are shown by their nickname,
 * never by their id. `profileOf` answers undefined while they load and for a user the user service does not know.
 */
export function useProfiles(uuids: readonly string[]): {
  profileOf(uuid: string): Profile | undefined;
  profiles: readonly Profile[] | undefined;
  isPending: boolean;
} {
  const client = useClient(ProfileService);
  const users = [...new Set(uuids.filter(Boolean))].sort().slice(0, PROFILE_MAX);
  const batches: string[][] = [];
  for (let start = 0; start < users.length; start += PROFILE_BATCH)
    batches.push(users.slice(start, start + PROFILE_BATCH));
  const answers = useQueries({
    queries: batches.map((batch) => ({
      queryKey: ["rooms", "profiles", ...batch],
      queryFn: () => client.getProfiles({ users: batch }),
      staleTime: PROFILE_STALE_MS,
      placeholderData: <T>(previous: T) => previous,
    })),
  });
  const loaded = answers.some((answer) => answer.data !== undefined);
  const key = answers.map((answer) => answer.dataUpdatedAt).join(",");
  const profiles = useMemo(
    () => (loaded ? answers.flatMap((answer) => answer.data?.profiles ?? []) : undefined),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the answers change identity each render; their times say when their data did
    [loaded, key],
  );
  const byUuid = useMemo(() => new Map((profiles ?? []).map((profile) => [profile.uuid, profile])), [profiles]);
  return {
    profiles,
    profileOf: (uuid) => byUuid.get(uuid),
    isPending: users.length > 0 && answers.some((answer) => answer.isPending),
  };
}
