// The page's analytics client, shared by the shell and every remote (the kit is a federation singleton): events
// go to the audit service through the kit's REST call (the session's bearer token, the service's base URL).
import { getPageKit, isPageKit, type Kit } from "../kit.ts";
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

const kitClients = new WeakMap<Kit, AnalyticsClient>();

/**
 * The analytics client of a kit: the page's client for the page's kit (what the shell and every remote render
 * with), else one per kit (a test's kit, unless a test sink was set with setKitAnalytics).
 */
export function analyticsFor(kit: Kit): AnalyticsClient {
  const set = kitClients.get(kit);
  if (set) return set;
  if (isPageKit(kit)) return getPageAnalytics();
  const client = createKitAnalytics(kit);
  kitClients.set(kit, client);
  return client;
}

/** Makes `client` the analytics client of `kit` (a test sink); the one it replaces is closed. */
export function setKitAnalytics(kit: Kit, client: AnalyticsClient): void {
  kitClients.get(kit)?.close();
  kitClients.set(kit, client);
}
