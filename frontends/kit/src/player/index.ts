// The player shared by every remote (spec 002 §4, §8, §9). Light: hls.js is fetched on the first HLS play.
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
export { chooseProvider, createPlayerController, providersOf } from "./controller.ts";
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
export { createMediaCache } from "./media-cache.ts";
export type { MediaCache, MediaCacheOptions } from "./media-cache.ts";
export { needsListenerCredentials, Player, qualityStoreOf, useAudioQuality, usePlaybackErrorText } from "./Player.tsx";
export type { PlayerProps } from "./Player.tsx";
export { createQualityStore, isAudioQuality } from "./quality.ts";
export type { QualityStore } from "./quality.ts";
export type { ActivePlayback, MediaElement, PlayableSong, PlayHandler, PlayRequest } from "./types.ts";
export { createUrlPlayHandler, levelForQuality, loadHls, URL_HANDLER_PROVIDERS } from "./url-handler.ts";
export type { HlsConstructor, UrlHandlerOptions } from "./url-handler.ts";
export { bestOffset, clockSample, createClockSync, startDriftCorrection } from "./clock.ts";
export type { ClockSample, ClockSync, ClockSyncOptions, DriftCorrectionOptions, ServerTime } from "./clock.ts";
export { loadPlayHandlers, OUTSIDE_PLAYERS, priorityForBrand } from "./handlers/index.ts";
export type { OutsidePlayer, PlayHandlerConfig } from "./handlers/index.ts";
export type { AppleHandlerOptions } from "./handlers/apple.ts";
export type { SpotifyHandlerOptions } from "./handlers/spotify.ts";
export type { YouTubeHandlerOptions } from "./handlers/youtube.ts";
export {
  createPlayTracker,
  FIFTEEN_SECOND_WINDOW,
  FIFTEEN_SECONDS_TOPIC,
  THIRTY_SECOND_WINDOW,
  THIRTY_SECONDS_TOPIC,
  TOTAL_PLAYED_TOPIC,
} from "./play-tracking.ts";
export type { PlayingEventRecord, PlayTracker, PlayTrackerOptions, TrackedPlay } from "./play-tracking.ts";
