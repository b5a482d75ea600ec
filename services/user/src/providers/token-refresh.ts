// Spec 002 §8's refresh-once rule lives in the kit (shared with the playlist service's clients).
export { withTokenRefresh } from "@tt/kit";
export type { TokenRefreshOptions, TokenRefreshResult } from "@tt/kit";
