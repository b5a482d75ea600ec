import { PROVIDER_PRIORITY, KNOWN_PROVIDERS, type AudioQuality } from "./constants.ts";
import { decideDrift, type DriftDecision, type DriftThresholds, DEFAULT_DRIFT_THRESHOLDS } from "./drift.ts";
import { FAILED_TO_PLAY_LOG, PlaybackError } from "./errors.ts";
import type { QualityStore } from "./quality.ts";
import type { ActivePlayback, MediaElement, PlayableSong, PlayHandler } from "./types.ts";

/** idle: nothing to play; loading: starting; ready: started, paused or waiting for a play; playing. */
export type PlayerStatus = "idle" | "loading" | "ready" | "playing" | "error";

export interface PlayerState {
  status: PlayerStatus;
  /** The provider playing (or that failed). */
  provider: string | null;
  error: Error | null;
  quality: AudioQuality;
}

export interface PlayOptions {
  /** Seconds into the song to start at. */
  startAt?: number;
  /** When the song ends (epoch ms, the room's): with the provider and stream URL, what makes a play "the same". */
  endsAt?: number;
  /** Start playing at once (default true); false only prepares the element. */
  autoplay?: boolean;
}

/** The headless player: one media element, one provider at a time (spec 002 §4). */
export interface PlayerController {
  getState(): PlayerState;
  subscribe(listener: () => void): () => void;
  /** Plays a song from its highest-priority provider; rejects (and shows) a PlaybackError when it cannot. */
  play(song: PlayableSong | null | undefined, options?: PlayOptions): Promise<void>;
  /** Brings the local position to the room's: nothing, a playback-rate nudge or a seek (see decideDrift). */
  seekTo(serverPosition: number): DriftDecision;
  setQuality(quality: AudioQuality): void;
  stop(): void;
  destroy(): void;
}

export interface PlayerControllerOptions {
  media: MediaElement;
  handlers: readonly PlayHandler[];
  quality: QualityStore;
  /** Spec 002 §9 (the hangout brand passes HANGOUT_PRIORITY). */
  priority?: readonly string[];
  thresholds?: DriftThresholds;
  /** Where "Failed to play song" goes (spec 002 §8). */
  log?: (message: string, error: unknown) => void;
}

/** The providers a song can be played from: those with an id or a stream URL. */
export function providersOf(song: PlayableSong): string[] {
  const names = new Set<string>();
  for (const [name, id] of Object.entries(song.musicProviders ?? {}))
    if (id !== undefined && id !== null && id !== "") names.add(name);
  for (const [name, urls] of Object.entries(song.streamUrls ?? {}))
    if (urls && (urls.hls || urls.http)) names.add(name);
  return [...names];
}

/**
 * The provider to play from (spec 002 §4, §9): the first by priority that the song has and a handler plays.
 * Throws "Unknown provider" when the song names no provider the player knows, and "Missing play handler for"
 * the best one when no handler plays any of them.
 */
export function chooseProvider(
  song: PlayableSong,
  handlers: readonly PlayHandler[],
  priority: readonly string[] = PROVIDER_PRIORITY,
): { provider: string; handler: PlayHandler } {
  const known = providersOf(song).filter((name) => KNOWN_PROVIDERS.has(name));
  if (known.length === 0) throw new PlaybackError("unknownProvider");
  const rank = (name: string) => {
    const index = priority.indexOf(name);
    return index === -1 ? priority.length : index;
  };
  const ordered = [...known].sort((a, b) => rank(a) - rank(b));
  for (const provider of ordered) {
    const handler = handlers.find((candidate) => candidate.providers.includes(provider));
    if (handler) return { provider, handler };
  }
  throw new PlaybackError("missingPlayHandler", ordered[0]);
}

export function createPlayerController({
  media,
  handlers,
  quality,
  priority = PROVIDER_PRIORITY,
  thresholds = DEFAULT_DRIFT_THRESHOLDS,
  // The spec's log message (§8) goes to the browser console, where a failed play is looked for.
  // eslint-disable-next-line no-console
  log = (message, error) => console.warn(message, error),
}: PlayerControllerOptions): PlayerController {
  let state: PlayerState = { status: "idle", provider: null, error: null, quality: quality.get() };
  const listeners = new Set<() => void>();
  let active: { playback: ActivePlayback; provider: string; endsAt: number | undefined } | null = null;
  // Each play gets a number; a slower earlier start that finishes later is stopped, never shown.
  let generation = 0;

  const setState = (patch: Partial<PlayerState>) => {
    state = { ...state, ...patch };
    for (const listener of listeners) listener();
  };

  const fail = (error: Error, provider: string | null) => {
    log(FAILED_TO_PLAY_LOG, error);
    setState({ status: "error", error, provider });
  };

  const stopActive = () => {
    active?.playback.stop();
    active = null;
    media.playbackRate = 1;
  };

  const onMediaError = () => {
    if (active) fail(new PlaybackError("mediaFailed", active.provider), active.provider);
  };
  const onPlaying = () => {
    if (active && state.status !== "playing") setState({ status: "playing", error: null });
  };
  const onPause = () => {
    if (active && state.status === "playing") setState({ status: "ready" });
  };
  media.addEventListener("error", onMediaError);
  media.addEventListener("playing", onPlaying);
  media.addEventListener("pause", onPause);

  const unsubscribeQuality = quality.subscribe(() => {
    const next = quality.get();
    active?.playback.setQuality?.(next);
    setState({ quality: next });
  });

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async play(song, options = {}) {
      const current = ++generation;
      // Spec 002 §4: playback stops when no song data is available.
      if (!song || providersOf(song).length === 0) {
        stopActive();
        setState({ status: "idle", provider: null, error: null });
        return;
      }
      let choice: ReturnType<typeof chooseProvider>;
      try {
        choice = chooseProvider(song, handlers, priority);
      } catch (error) {
        stopActive();
        fail(error as Error, null);
        throw error;
      }
      const { provider, handler } = choice;
      const urls = song.streamUrls?.[provider];
      const source = urls?.hls || urls?.http || String(song.musicProviders?.[provider] ?? "");
      // The same provider with the same end time and stream URL does not restart.
      if (
        active &&
        active.provider === provider &&
        active.playback.source === source &&
        active.endsAt === options.endsAt
      ) {
        return;
      }
      // Exactly one provider plays at a time: whatever plays is stopped first.
      stopActive();
      setState({ status: "loading", provider, error: null });
      try {
        const playback = await handler.play({
          song,
          provider,
          media,
          startAt: Math.max(0, Number.isFinite(options.startAt) ? (options.startAt as number) : 0),
          quality: quality.get(),
          autoplay: options.autoplay ?? true,
          onError: (error) => {
            if (current === generation) fail(error, provider);
          },
        });
        if (current !== generation) {
          playback.stop();
          return;
        }
        active = { playback, provider, endsAt: options.endsAt };
        if (state.status === "loading") setState({ status: "ready" });
      } catch (error) {
        if (current === generation) fail(error as Error, provider);
        throw error;
      }
    },
    seekTo(serverPosition) {
      const outside = active?.playback;
      // An SDK's own player (YouTube, Spotify, Apple) is only ever seeked: no fine playback-rate control there.
      if (outside?.position && outside.seek) {
        const decision = decideDrift(outside.position(), serverPosition, thresholds);
        if (decision.action === "seek") outside.seek(decision.position);
        return decision.action === "nudge" ? { action: "none", drift: decision.drift, playbackRate: 1 } : decision;
      }
      const decision = decideDrift(media.currentTime, serverPosition, thresholds);
      if (decision.action === "seek") media.currentTime = decision.position;
      if (media.playbackRate !== decision.playbackRate) media.playbackRate = decision.playbackRate;
      return decision;
    },
    setQuality: (next) => quality.set(next),
    stop() {
      generation += 1;
      stopActive();
      setState({ status: "idle", provider: null, error: null });
    },
    destroy() {
      generation += 1;
      stopActive();
      unsubscribeQuality();
      media.removeEventListener("error", onMediaError);
      media.removeEventListener("playing", onPlaying);
      media.removeEventListener("pause", onPause);
      listeners.clear();
    },
  };
}
