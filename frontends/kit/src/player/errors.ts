// Spec 002 §8: the playback errors. Each carries a code (its translation key) and the English text the spec
// gives, so a log line reads like the spec and a screen shows it in the listener's language.

export type PlaybackErrorCode =
  | "missingPlayHandler"
  | "missingUrl"
  | "missingId"
  | "unknownProvider"
  | "noSoundCloudToken"
  | "noSpotifyToken"
  | "missingConfig"
  | "mediaFailed";

const ENGLISH: Record<PlaybackErrorCode, (detail: string) => string> = {
  missingPlayHandler: (provider) => `Missing play handler for ${provider}`,
  missingUrl: (provider) => `Missing URL to play from ${provider}`,
  missingId: (provider) => `Missing ID to play from ${provider}`,
  unknownProvider: () => "Unknown provider",
  noSoundCloudToken: () => "No SoundCloud public token",
  noSpotifyToken: () => "No Spotify token",
  missingConfig: (key) => `key:${key}`,
  mediaFailed: () => "Failed to play song",
};

export class PlaybackError extends Error {
  override readonly name = "PlaybackError";
  /**
   * @param code which of the spec's errors
   * @param detail the provider (missing handler, URL or ID) or the configuration key (missingConfig)
   */
  constructor(
    readonly code: PlaybackErrorCode,
    readonly detail: string = "",
    options?: { cause?: unknown },
  ) {
    super(ENGLISH[code](detail), options);
  }
}

export function isPlaybackError(error: unknown): error is PlaybackError {
  return error instanceof Error && error.name === "PlaybackError" && "code" in error;
}

/** The log message of spec 002 §8 for any failure to start a song. */
export const FAILED_TO_PLAY_LOG = "Failed to play song";
