import { errorCode } from "./error-text.ts";

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Spec 002 §9 "Staleness", by query family. */
export const STALE_TIME = {
  crates: 60 * SECOND,
  profile: 5 * MINUTE,
  recentSongs: 60 * SECOND,
  chatToken: 60 * SECOND,
  avatars: 60 * SECOND,
  media: 1 * HOUR,
  // Not in the spec: the session and admin lists change by the user's own actions, which invalidate them.
  session: 60 * SECOND,
  adminList: 0,
} as const;

/** Spec 002 §4: crate lists refresh every 5 seconds while any crate import is IN_PROGRESS. */
export const CRATE_IMPORT_REFETCH_INTERVAL = 5 * SECOND;

/** Spec 002 §9 paging constants the screens use. */
export const PAGE_SIZE = {
  crateSongs: 300,
  crates: 100,
  consumables: 32,
  tokenBundles: 32,
  profiles: 150,
  search: 20,
} as const;

/**
 * Query keys: the first element names the family, and the family carries its staleness as a query
 * default, so a screen cannot forget the spec's rule by leaving staleTime out.
 */
export const queryKeys = {
  session: (token: string | undefined) => ["session", token ?? ""] as const,
  profile: (uuid: string) => ["profile", uuid] as const,
  crates: (userUuid: string) => ["crates", userUuid] as const,
  recentSongs: (roomSlug: string) => ["recentSongs", roomSlug] as const,
  chatToken: () => ["chatToken"] as const,
  avatars: () => ["avatars"] as const,
  media: (url: string) => ["media", url] as const,
  tokenBalance: (userUuid: string) => ["tokenBalance", userUuid] as const,
  adminUsers: (page: number, limit: number) => ["adminList", "users", page, limit] as const,
};

// Convention 12: clients retry only on Unavailable and Aborted; a 4xx is an answer, not a hiccup.
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= 2) return false;
  const code = errorCode(error);
  // Code.Unavailable (14) and Code.Aborted (10), by number: see error-text.ts.
  return code === 14 || code === 10;
}
