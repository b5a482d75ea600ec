// What the web kit's entry exports of the player: the light parts (constants, drift rule, errors, types) at once,
// the rest through the lazy component and loadPlayer(), so pages that never play carry none of it.
export {
  AUDIO_QUALITIES,
  AUDIO_QUALITY_STORAGE_KEY,
  DEFAULT_AUDIO_QUALITY,
  DRIFT_CATCH_UP_S,
  DRIFT_IN_SYNC_S,
  DRIFT_RATE_NUDGE,
  DRIFT_SEEK_THRESHOLD_S,
  DRIFT_TOLERANCE_S,
  HANGOUT_PRIORITY,
  ID_PROVIDERS,
  MEDIA_CACHE_TTL_MS,
  PROVIDER_PRIORITY,
  URL_PROVIDERS,
} from "./constants.ts";
export type { AudioQuality } from "./constants.ts";
export type {
  PlayerController,
  PlayerControllerOptions,
  PlayerState,
  PlayerStatus,
  PlayOptions,
} from "./controller.ts";
export { decideDrift, DEFAULT_DRIFT_THRESHOLDS, elapsedPosition } from "./drift.ts";
export type { DriftDecision, DriftThresholds } from "./drift.ts";
export { FAILED_TO_PLAY_LOG, isPlaybackError, PlaybackError } from "./errors.ts";
export type { PlaybackErrorCode } from "./errors.ts";
export type { MediaCache, MediaCacheOptions } from "./media-cache.ts";
export type { PlayerProps } from "./Player.tsx";
export type { QualityStore } from "./quality.ts";
export type { ActivePlayback, MediaElement, PlayableSong, PlayHandler, PlayRequest } from "./types.ts";
export type { HlsConstructor, UrlHandlerOptions } from "./url-handler.ts";
export type { ClockSample, ClockSync, ClockSyncOptions, DriftCorrectionOptions } from "./clock.ts";
export type { OutsidePlayer, PlayHandlerConfig } from "./handlers/index.ts";
export type { PlayingEventRecord, PlayTracker, PlayTrackerOptions, TrackedPlay } from "./play-tracking.ts";
export { loadPlayer, Player } from "./lazy.tsx";
