import { useKit } from "../KitProvider.tsx";
import type { AnalyticsClient } from "./client.ts";
import { analyticsFor } from "./page.ts";

/**
 * The analytics client of the kit a screen renders with (the page's, in the shell or a standalone remote):
 * `useAnalytics().track(topic, record)` at a user action queues the event and returns at once.
 */
export function useAnalytics(): AnalyticsClient {
  return analyticsFor(useKit());
}
