import { DRIFT_RATE_NUDGE, DRIFT_SEEK_THRESHOLD_S, DRIFT_TOLERANCE_S } from "./constants.ts";

/** What drift correction does for one server position. */
export type DriftDecision =
  | { action: "none"; drift: number; playbackRate: 1 }
  | { action: "nudge"; drift: number; playbackRate: number }
  | { action: "seek"; drift: number; position: number; playbackRate: 1 };

export interface DriftThresholds {
  tolerance: number;
  seekThreshold: number;
  rateNudge: number;
}

export const DEFAULT_DRIFT_THRESHOLDS: DriftThresholds = {
  tolerance: DRIFT_TOLERANCE_S,
  seekThreshold: DRIFT_SEEK_THRESHOLD_S,
  rateNudge: DRIFT_RATE_NUDGE,
};

/**
 * How to bring the local position (seconds) to the server's: nothing within the tolerance, a slightly faster
 * (behind) or slower (ahead) playback rate for a small drift, a seek at or beyond the threshold.
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
  return { action: "nudge", drift, playbackRate: drift > 0 ? 1 + thresholds.rateNudge : 1 - thresholds.rateNudge };
}

/**
 * Spec 002 §4: a sync resumes at the elapsed position computed from the song's duration, its end time and an
 * offset (the listener's clock minus the server's, in milliseconds).
 */
export function elapsedPosition(durationSeconds: number, endsAt: number, now: number, clockOffsetMs = 0): number {
  const remaining = (endsAt - (now - clockOffsetMs)) / 1000;
  return Math.min(Math.max(durationSeconds - remaining, 0), durationSeconds);
}
