import { createAnalyticsClient, type AnalyticsEvent } from "../analytics/client.ts";
import { setKitAnalytics } from "../analytics/page.ts";
import type { AnalyticsTopic } from "../analytics/topics.ts";
import type { Kit } from "../kit.ts";

export interface AnalyticsSink {
  /** Every event the client sent, in order. */
  events: AnalyticsEvent[];
  /** The records sent on one topic. */
  of(topic: AnalyticsTopic): AnalyticsEvent["record"][];
}

/**
 * Points `kit`'s analytics client at a recording transport: the real client (its topic list, the guest rule,
 * the device data) that sends each event at once (a batch of one) into `events` instead of the audit service.
 */
export function recordAnalytics(kit: Kit): AnalyticsSink {
  const events: AnalyticsEvent[] = [];
  setKitAnalytics(
    kit,
    createAnalyticsClient({
      transport: { send: async (event) => void events.push(event) },
      isLoggedIn: () => kit.session.getSnapshot().accessToken?.tokenType === "user",
      maxBatch: 1,
    }),
  );
  return { events, of: (topic) => events.filter((e) => e.topic === topic).map((e) => e.record) };
}
