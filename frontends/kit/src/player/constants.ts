// Spec 002 §4, §8, §9: the numbers the player works by, named so the live room and the tests share them.

/** Audio quality choices; the upload service packages one HLS rendition per quality. */
export const AUDIO_QUALITIES = ["low", "medium", "high"] as const;
export type AudioQuality = (typeof AUDIO_QUALITIES)[number];
/** Spec 002 §9: default medium, persisted; §4: reset to medium when not signed in. */
export const DEFAULT_AUDIO_QUALITY: AudioQuality = "medium";
export const AUDIO_QUALITY_STORAGE_KEY = "tt-audio-quality";

/** Spec 002 §9: media cache and stale time one hour. */
export const MEDIA_CACHE_TTL_MS = 60 * 60 * 1000;

// Drift correction (seekTo(serverPosition)): how far the local position may be from the room's before anything
// is done, how hard the playback rate is nudged to close a small gap without an audible jump, and beyond which
// gap a seek is cheaper than catching up (at a 5 % nudge a 2-second gap takes 40 seconds to close).
/** Below this (seconds) the player is in sync: the rate goes back to 1 (what is left is the noise of reading it). */
export const DRIFT_IN_SYNC_S = 0.01;
/**
 * The nudge closes a gap over this long (seconds): the rate is 1 ± drift / DRIFT_CATCH_UP_S, at most
 * DRIFT_RATE_NUDGE. The correction runs every second, so a small gap is closed by the next one without
 * overshooting it (a fixed 5 % would move 50 ms a second, past a 10 ms gap and back).
 */
export const DRIFT_CATCH_UP_S = 1;
/**
 * Within this (seconds) a starting or stalled player is close enough not to jump (the live room's alignment: a
 * jump costs the time to buffer there); the rate nudge closes the rest. Not the sync target: the room's is 25 ms.
 */
export const DRIFT_TOLERANCE_S = 0.25;
/** At or above this (seconds) the player seeks to the server's position. */
export const DRIFT_SEEK_THRESHOLD_S = 2;
/** The playback rate offset used to catch up (1 + x) or fall back (1 − x) on a small drift. */
export const DRIFT_RATE_NUDGE = 0.05;

/** The content type a browser with native HLS says it can play. */
export const HLS_MIME_TYPE = "application/vnd.apple.mpegurl";

/**
 * Spec 002 §9: the provider priority for playback outside the hangout brand (its own list is HANGOUT_PRIORITY).
 * The product's providers use the wire names of tt.common.v1.MusicProvider.
 */
export const PROVIDER_PRIORITY = ["spotify", "apple", "youtube", "soundCloudPublic", "audius", "uploadService"];
/** Spec 002 §9, hangout brand: the paid catalogue first (no wire name yet: "catalogue"), the upload last. */
export const HANGOUT_PRIORITY = ["catalogue", "soundCloudPublic", "audius", "spotify", "apple", "uploadService"];

/** Spec 002 §3: the provider groups for playback. */
export const URL_PROVIDERS = ["catalogue", "soundCloudPublic", "uploadService", "audius"] as const;
export const ID_PROVIDERS = ["apple", "spotify", "youtube"] as const;

/** Every provider name the player recognises (tt.common.v1.MusicProvider's wire names and the paid catalogue). */
export const KNOWN_PROVIDERS: ReadonlySet<string> = new Set([
  "apple",
  "audius",
  "napster",
  "soundCloudPublic",
  "spotify",
  "uploadService",
  "youtube",
  "pandora",
  "deezer",
  "tidal",
  "amazonMusic",
  "yandex",
  "spinrilla",
  "sevenDigital",
  "soundcloud",
  "catalogue",
]);
