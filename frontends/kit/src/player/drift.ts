import { DRIFT_CATCH_UP_S, DRIFT_IN_SYNC_S, DRIFT_RATE_NUDGE, DRIFT_SEEK_THRESHOLD_S } from "./constants.ts";

/** What drift correction does for one server position. */
export type DriftDecision =
  | { action: "none"; drift: number; playbackRate: 1 }
  | { action: "nudge"; drift: number; playbackRate: number }
  | { action: "seek"; drift: number; position: number; playbackRate: 1 };

export interface DriftThresholds {
  /** Below this drift (s): nothing, rate 1. */
  tolerance: number;
  seekThreshold: number;
  /** The largest rate change (a fraction of 1). */
  rateNudge: number;
  /** A nudge closes the drift over this long (s): rate 1 ± drift / catchUp, at most rateNudge. */
  catchUp: number;
}

export const DEFAULT_DRIFT_THRESHOLDS: DriftThresholds = {
  tolerance: DRIFT_IN_SYNC_S,
  seekThreshold: DRIFT_SEEK_THRESHOLD_S,
  rateNudge: DRIFT_RATE_NUDGE,
  catchUp: DRIFT_CATCH_UP_S,
};

/**
 * How to bring the local position (seconds) to the server's: nothing within the tolerance, a slightly faster
 * (behind) or slower (ahead) playback rate for a small drift — in proportion to it, so that it is closed over
 * `catchUp` seconds, at most ± rateNudge — and a seek at or beyond the threshold.
 * `drift` is server − local: positive when the listener is behind the room.
 */
export function decideDrift(
  localPosition: number,
  serverPosition: number,
  thresholds: DriftThresholds = DEFAULT_DRIFT_THRESHOLDS,
): DriftDecision {
  // A position the server did not really give changes nothing; a local one the media element has not got yet
  // (NaN before metadata) is a seek.
  if (!Number.isFinite(serverPosition)) return { action: "none", drift: 0, playbackRate: 1 };
  const drift = serverPosition - localPosition;
  const size = Math.abs(drift);
  if (!Number.isFinite(drift) || size >= thresholds.seekThreshold) {
    return { action: "seek", drift, position: Math.max(0, serverPosition), playbackRate: 1 };
  }
  if (size < thresholds.tolerance) return { action: "none", drift, playbackRate: 1 };
  const nudge = Math.min(thresholds.rateNudge, size / thresholds.catchUp);
  return { action: "nudge", drift, playbackRate: drift > 0 ? 1 + nudge : 1 - nudge };
}

/**
 * Spec 002 §4: a sync resumes at the elapsed position computed from the song's duration, its end time and an
 * offset (the listener's clock minus the server's, in milliseconds).
 */
export function elapsedPosition(durationSeconds: number, endsAt: number, now: number, clockOffsetMs = 0): number {
  const remaining = (endsAt - (now - clockOffsetMs)) / 1000;
  return Math.min(Math.max(durationSeconds - remaining, 0), durationSeconds);
}
