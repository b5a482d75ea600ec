import type { AudioQuality } from "./constants.ts";

/** A song as the player needs it: the crate-song fields (spec 002 §3) that say where it can be played from. */
export interface PlayableSong {
  /** Provider (tt.common.v1.MusicProvider wire name) → the song's id there. */
  musicProviders?: Readonly<Record<string, string | number | undefined | null>>;
  /** Provider → its stream URLs: a plain file (`http`) and/or an HLS playlist (`hls`). */
  streamUrls?: Readonly<Record<string, { http?: string; hls?: string } | undefined | null>>;
  /** Seconds. */
  duration?: number;
  trackName?: string;
  artistName?: string;
}

/** What the player drives: an <audio> or <video> element (a fake in unit tests). */
export type MediaElement = Pick<
  HTMLMediaElement,
  | "currentTime"
  | "playbackRate"
  | "src"
  | "duration"
  | "play"
  | "pause"
  | "load"
  | "canPlayType"
  | "removeAttribute"
  | "addEventListener"
  | "removeEventListener"
>;

export interface PlayRequest {
  song: PlayableSong;
  /** The provider chosen by priority (spec 002 §9). */
  provider: string;
  media: MediaElement;
  /** Seconds into the song. */
  startAt: number;
  quality: AudioQuality;
  autoplay: boolean;
  /** A failure after the song started (a fatal stream error). */
  onError(error: Error): void;
}

/** A song a handler is playing. */
export interface ActivePlayback {
  /** What it plays from (a stream URL, an id): the same provider and source with the same end time never restarts. */
  source: string;
  stop(): void;
  setQuality?(quality: AudioQuality): void;
  /**
   * Seconds into the song, for a handler that plays outside the media element (an SDK's own player); drift
   * correction then reads this and seeks with `seek` (SDK players have no fine playback-rate control).
   */
  position?(): number;
  seek?(seconds: number): void;
}

/**
 * One per provider group (spec 002 §3): the URL-based providers (catalogue, SoundCloud, upload, Audius) share
 * one that plays a stream URL; the id-based ones (Apple, Spotify, YouTube) each bring their SDK later.
 */
export interface PlayHandler {
  /** A name for logs, e.g. "url". */
  readonly group: string;
  /** The providers it plays (wire names). */
  readonly providers: readonly string[];
  /** Starts the song; rejects with a PlaybackError when it cannot. */
  play(request: PlayRequest): Promise<ActivePlayback>;
}
