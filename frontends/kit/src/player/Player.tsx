import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { useAppTranslation, useKit } from "../KitProvider.tsx";
import { loadRuntimeConfig, serviceBaseUrl } from "../remote-config.ts";
import type { SessionStore } from "../session-store.ts";
import { AUDIO_QUALITIES, type AudioQuality } from "./constants.ts";
import { createPlayerController, type PlayerController, type PlayerState } from "./controller.ts";
import { isPlaybackError } from "./errors.ts";
import { PLAYER_NAMESPACE, playerTranslations } from "./locales.ts";
import { createQualityStore, type QualityStore } from "./quality.ts";
import type { PlayableSong, PlayHandler } from "./types.ts";
import { createNativeHlsUrl } from "./native-hls.ts";
import { createUrlPlayHandler } from "./url-handler.ts";

// One quality store per session store (one per page: the kit is a singleton), so every player agrees.
const qualityStores = new WeakMap<SessionStore, QualityStore>();

export function qualityStoreOf(session: SessionStore, storage?: Storage): QualityStore {
  let store = qualityStores.get(session);
  if (!store) {
    store = createQualityStore(storage ?? (typeof localStorage === "undefined" ? undefined : localStorage), session);
    qualityStores.set(session, store);
  }
  return store;
}

/** The listener's audio quality and its setter (persisted; medium when not signed in). */
export function useAudioQuality(): [AudioQuality, (quality: AudioQuality) => void] {
  const { session } = useKit();
  const store = qualityStoreOf(session);
  const quality = useSyncExternalStore(store.subscribe, store.get, store.get);
  return [quality, store.set];
}

/**
 * Whether a media request must carry the listener's bearer token (the upload service's protos): the master
 * playlist (`/songs/{id}/hls-playlist`), a quality's playlist (`/songs/{id}/hls/{quality}`, whose key URL is
 * signed for that listener) and the key (`/songs/hls/key`). Segments never do, so shared caches can keep them.
 */
export function needsListenerCredentials(url: string): boolean {
  let path: string;
  try {
    path = new URL(url, "http://localhost").pathname;
  } catch {
    return false;
  }
  return /\/songs\/(hls\/key|[0-9]+\/hls-playlist|[0-9]+\/hls\/[a-z]+)$/.test(path);
}

const UPLOAD_MASTER = /^\/api\/room-service\/songs\/[0-9]+\/hls-playlist$/;

/**
 * An upload's master playlist path with the room the listener is in (issue 23: a song that is not public plays for
 * the room's listeners while its owner plays it there, and the upload service asks the stage about that room);
 * any other URL, or no room, as it is.
 */
export function withRoom(url: string, provider: string, room: string | undefined): string {
  return provider === "uploadService" && room && UPLOAD_MASTER.test(url)
    ? `${url}?room=${encodeURIComponent(room)}`
    : url;
}

/**
 * The upload service's stream paths are under its base URL (the runtime configuration's "upload" entry, the page's
 * origin by default); absolute URLs and other providers' URLs are left as they are.
 */
export async function resolveUploadUrl(url: string, provider: string): Promise<string> {
  if (provider !== "uploadService" || !url.startsWith("/") || url.startsWith("//")) return url;
  const services = await loadRuntimeConfig().then(
    (config) => config.services,
    () => ({}),
  );
  const base = serviceBaseUrl("upload", services, "");
  return `${base}${url}`;
}

export interface PlayerProps {
  /** What to play; null stops. */
  song: PlayableSong | null;
  /** Seconds into the song to start at. */
  startAt?: number;
  /** The room's end time of the song (epoch ms): a new value restarts the same song. */
  endsAt?: number;
  autoplay?: boolean;
  /** The accessible name of the media element. */
  label?: string;
  /** More play handlers (the live room's YouTube, Spotify, …), read when the player mounts; the URL one is always there. */
  handlers?: readonly PlayHandler[];
  /** The headless controller, for drift correction (seekTo) from the room's clock. */
  onController?: (controller: PlayerController | null) => void;
  /** Tests: the handler for the URL providers. */
  urlHandler?: PlayHandler;
  /** Spec 002 §9's provider priority (the hangout brand's own list), read when the player mounts. */
  priority?: readonly string[];
  /** The live room's uuid: an upload that is not public plays for its listeners (issue 23). */
  room?: string;
}

/** The text of a playback error in the listener's language. */
export function usePlaybackErrorText(): (error: Error) => string {
  const { t } = useAppTranslation(PLAYER_NAMESPACE, playerTranslations);
  return (error) =>
    isPlaybackError(error) ? t(`errors.${error.code}`, { detail: error.detail }) : t("errors.mediaFailed");
}

/** The player every remote shares: an <audio> element with controls, a quality choice and the §8 errors. */
export function Player({
  song,
  startAt,
  endsAt,
  autoplay = true,
  label,
  handlers,
  onController,
  urlHandler,
  priority,
  room,
}: PlayerProps) {
  const { session } = useKit();
  const { t } = useAppTranslation(PLAYER_NAMESPACE, playerTranslations);
  const errorText = usePlaybackErrorText();
  const [quality, setQuality] = useAudioQuality();
  const mediaRef = useRef<HTMLAudioElement>(null);
  const [controller, setController] = useState<PlayerController | null>(null);
  // Read when a song starts (not during render): the handlers are made once, the room may come later.
  const [currentRoom] = useState(() => {
    let value = room;
    return { get: () => value, set: (next: string | undefined) => void (value = next) };
  });
  useEffect(() => currentRoom.set(room), [currentRoom, room]);

  // The handlers are read when the player mounts (a new array on every render of the room must not restart it).
  const allHandlers = useMemo(
    () => [
      ...(handlers ?? []),
      urlHandler ??
        createUrlPlayHandler({
          requestHeaders: (url) => {
            const token = session.getSnapshot().accessToken;
            return token && needsListenerCredentials(url) ? { Authorization: `Bearer ${token.token}` } : undefined;
          },
          resolveUrl: (url, provider) => resolveUploadUrl(withRoom(url, provider, currentRoom.get()), provider),
          nativeHlsUrl: createNativeHlsUrl({
            token: () => session.getSnapshot().accessToken?.token,
            room: currentRoom.get,
            resolve: (path) => resolveUploadUrl(path, "uploadService"),
          }),
        }),
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [session],
  );

  useEffect(() => {
    const media = mediaRef.current;
    if (!media) return;
    const created = createPlayerController({
      media,
      handlers: allHandlers,
      quality: qualityStoreOf(session),
      ...(priority ? { priority } : {}),
    });
    setController(created);
    onController?.(created);
    return () => {
      onController?.(null);
      created.destroy();
      setController(null);
    };
    // onController is a notification, not an input: a new function each render must not recreate the player.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [allHandlers, session]);

  useEffect(() => {
    if (!controller) return;
    // The failure is in the controller's state, shown below.
    controller.play(song, { startAt, endsAt, autoplay }).catch(() => undefined);
  }, [controller, song, startAt, endsAt, autoplay]);

  const state = useSyncExternalStore<PlayerState | null>(
    (listener) => controller?.subscribe(listener) ?? (() => undefined),
    () => controller?.getState() ?? null,
    () => null,
  );

  return (
    <div className="tt-player" data-status={state?.status ?? "idle"}>
      <audio ref={mediaRef} controls aria-label={label} data-testid="tt-player-media" preload="auto" />
      <label className="tt-player-quality">
        {t("quality")}{" "}
        <select value={quality} onChange={(event) => setQuality(event.target.value as AudioQuality)}>
          {AUDIO_QUALITIES.map((choice) => (
            <option key={choice} value={choice}>
              {t(`qualities.${choice}`)}
            </option>
          ))}
        </select>
      </label>
      {state?.status === "error" && state.error ? (
        <p role="alert" className="tt-error">
          {errorText(state.error)}
        </p>
      ) : null}
    </div>
  );
}
