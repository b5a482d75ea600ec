// The page's analytics client, shared by the shell and every remote (the kit is a federation singleton): events
// go to the audit service through the kit's REST call (the session's bearer token, the service's base URL).
import { getPageKit, type Kit } from "../kit.ts";
import { createAnalyticsClient, type AnalyticsClient, type AnalyticsEvent } from "./client.ts";

export const KINESIS_PATH = "/kinesis";

/** Inside Discord's activity frame (its proxy's host), the device data says isDiscord. */
export function isDiscordHost(hostname: string): boolean {
  return /(^|\.)discordsays\.com$/.test(hostname);
}

/** An analytics client that sends through `kit` (the page's kit by default). */
export function createKitAnalytics(kit: Kit, beaconUrl?: string): AnalyticsClient {
  return createAnalyticsClient({
    isLoggedIn: () => kit.session.getSnapshot().accessToken?.tokenType === "user",
    isDiscord: () => typeof window !== "undefined" && isDiscordHost(window.location.hostname),
    transport: {
      send: (event: AnalyticsEvent) =>
        kit.rest("audit", KINESIS_PATH, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(event),
          keepalive: true,
        }),
      beacon: (event: AnalyticsEvent) =>
        beaconUrl !== undefined &&
        typeof navigator !== "undefined" &&
        typeof navigator.sendBeacon === "function" &&
        navigator.sendBeacon(beaconUrl, new Blob([JSON.stringify(event)], { type: "application/json" })),
    },
  });
}

let pageAnalytics: AnalyticsClient | undefined;

/** The page's analytics client (one per page). */
export function getPageAnalytics(): AnalyticsClient {
  pageAnalytics ??= createKitAnalytics(getPageKit(), `${window.location.origin}/api/audit-service${KINESIS_PATH}`);
  return pageAnalytics;
}
