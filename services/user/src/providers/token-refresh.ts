// Spec 002 §8's refresh-once rule lives in @tt/providers (shared with the playlist service's clients).
export { withTokenRefresh } from "@tt/providers";
export type { TokenRefreshOptions, TokenRefreshResult } from "@tt/providers";
