export { createAnalyticsClient } from "./client.ts";
export type { AnalyticsClient, AnalyticsClientOptions, AnalyticsEvent, AnalyticsTransport } from "./client.ts";
export {
  analyticsFor,
  createKitAnalytics,
  getPageAnalytics,
  isDiscordHost,
  KINESIS_PATH,
  setKitAnalytics,
} from "./page.ts";
export { useAnalytics } from "./use-analytics.ts";
export { ANALYTICS_TOPICS, GUEST_ANALYTICS_TOPICS } from "./topics.ts";
export type { AnalyticsDeviceData, AnalyticsRecord, AnalyticsTopic } from "./topics.ts";
