// The analytics topics, as proto/tt/audit/v1/audit.proto's AnalyticsTopic declares them (their wire names).
// Kept as plain strings so the page does not load protobuf for them; topics.test.ts checks they are exactly the
// proto's.

export const ANALYTICS_TOPICS = [
  "page-view",
  "user-song-total-played",
  "15-seconds",
  "30-seconds",
  "home-rooms-loaded",
  "room-action",
  "playlist-action",
  "queue-action",
  "shop-action",
  "purchase-action",
  "feedback-action",
  "login-action",
] as const;

export type AnalyticsTopic = (typeof ANALYTICS_TOPICS)[number];

/**
 * What a page without a signed-in user (a guest token or none) may send: the audit service refuses the other
 * topics from them (docs/decisions/0180-analytics-from-guests.md), so the client never sends them.
 */
export const GUEST_ANALYTICS_TOPICS: ReadonlySet<AnalyticsTopic> = new Set<AnalyticsTopic>([
  "page-view",
  "home-rooms-loaded",
  "login-action",
]);

/** Device data (spec 002 §3): platform mobile or web, isDiscord, isLoggedIn. */
export interface AnalyticsDeviceData {
  platform: "mobile" | "web";
  isDiscord: boolean;
  isLoggedIn: boolean;
}

/** A JSON record; home-rooms-loaded carries roomCount and utmSource. */
export type AnalyticsRecord = Record<string, string | number | boolean | null>;
