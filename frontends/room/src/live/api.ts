import { AvatarService } from "@tt/proto/tt/merch/v1/avatar_service_pb";
import { CatalogueService } from "@tt/proto/tt/playlist/v1/catalogue_service_pb";
import { CrateService } from "@tt/proto/tt/playlist/v1/crate_service_pb";
import { StageService } from "@tt/proto/tt/social/v1/stage_service_pb";
import { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import { ProviderTokenService } from "@tt/proto/tt/user/v1/provider_token_service_pb";
import { useClient } from "@tt/web-kit/connect";

export { AvatarService, CatalogueService, CrateService, ProfileService, ProviderTokenService, StageService };

export const useStageClient = () => useClient(StageService);
export const useCrateClient = () => useClient(CrateService);
export const useCatalogueClient = () => useClient(CatalogueService);
export const useProviderTokenClient = () => useClient(ProviderTokenService);
export const useProfileClient = () => useClient(ProfileService);
export const useAvatarClient = () => useClient(AvatarService);

/** Query keys of the live room. */
export const liveKeys = {
  queue: ["rooms", "live", "queue"] as const,
  /** The demo catalogue's songs (the queue panel's "Start here" shelf). */
  startHere: ["rooms", "live", "startHere"] as const,
  crates: ["rooms", "live", "crates"] as const,
  userData: ["rooms", "live", "userData"] as const,
  profiles: (uuids: readonly string[]) => ["rooms", "live", "profiles", ...uuids] as const,
  /** A merch avatar by slug (its name and image), shared by everyone wearing it. */
  avatar: (slug: string) => ["rooms", "live", "avatar", slug] as const,
  /** §4: "a played-song message adds the finished song to the recent-songs cache". */
  recentSongs: (room: string) => ["rooms", "live", "recentSongs", room] as const,
  /** 001 §7: the room's users not drawn on the dance floor. */
  noDancefloor: (room: string) => ["rooms", "live", "noDancefloor", room] as const,
};

/** Spec 002 §9: profiles are fresh for 5 minutes and fetched in batches of at most 150. */
export const PROFILE_STALE_MS = 5 * 60 * 1000;
export const PROFILE_BATCH = 150;
/** Avatars (the merch catalogue) change rarely: an image is kept for an hour. */
export const AVATAR_STALE_MS = 60 * 60 * 1000;

/** The demo catalogue changes only when a fresh install seeds it: asked again after ten minutes. */
export const START_HERE_STALE_MS = 10 * 60 * 1000;
/** At most this many demo songs on the shelf (the seeded catalogue has five). */
export const START_HERE_SIZE = 20;

/** The queue shown beside the booth (the playlist service's page size for crate songs, §9). */
export const QUEUE_PAGE_SIZE = 300;
