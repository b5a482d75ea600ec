// The crates remote's analytics (spec 002 §7): what is done to the queue is a queue action, to any other crate
// (the likes crate included) a playlist action.
import { useAnalytics, type AnalyticsRecord, type AnalyticsTopic } from "@tt/web-kit";
import { useCallback } from "react";
import type { CrateTarget } from "../api/crates.ts";

export function crateTopic(target: CrateTarget): AnalyticsTopic {
  return "special" in target && target.special === "queue" ? "queue-action" : "playlist-action";
}

/** Which crate: `queue`, `likes`, or a crate's uuid. */
export function crateOf(target: CrateTarget): string {
  return "special" in target ? target.special : target.crateUuid;
}

/** `track(target, action, extra)`: queues the crate action (never waits, never throws). */
export function useTrackCrateAction() {
  const analytics = useAnalytics();
  return useCallback(
    (target: CrateTarget, action: string, extra: AnalyticsRecord = {}) =>
      void analytics.track(crateTopic(target), { action, crate: crateOf(target), ...extra }),
    [analytics],
  );
}
