import { isSignedIn, type SessionStore } from "../session-store.ts";
import { AUDIO_QUALITIES, AUDIO_QUALITY_STORAGE_KEY, DEFAULT_AUDIO_QUALITY, type AudioQuality } from "./constants.ts";

export function isAudioQuality(value: unknown): value is AudioQuality {
  return typeof value === "string" && (AUDIO_QUALITIES as readonly string[]).includes(value);
}

/** The listener's audio quality: persisted (spec 002 §9), back to medium whenever nobody is signed in (§4). */
export interface QualityStore {
  get(): AudioQuality;
  set(quality: AudioQuality): void;
  subscribe(listener: () => void): () => void;
  /** Stops following the session. */
  dispose(): void;
}

export function createQualityStore(storage: Storage | undefined, session?: SessionStore): QualityStore {
  const listeners = new Set<() => void>();
  const read = (): AudioQuality => {
    const stored = storage?.getItem(AUDIO_QUALITY_STORAGE_KEY);
    return isAudioQuality(stored) ? stored : DEFAULT_AUDIO_QUALITY;
  };
  let current = read();
  const write = (quality: AudioQuality) => {
    const changed = quality !== current;
    current = quality;
    storage?.setItem(AUDIO_QUALITY_STORAGE_KEY, quality);
    if (changed) for (const listener of listeners) listener();
  };
  const signedIn = () => !session || isSignedIn(session.getSnapshot());
  const resetWhenSignedOut = () => {
    if (!signedIn()) write(DEFAULT_AUDIO_QUALITY);
  };
  resetWhenSignedOut();
  const unsubscribe = session?.subscribe(resetWhenSignedOut);
  return {
    get: () => current,
    set(quality) {
      if (!isAudioQuality(quality)) throw new RangeError(`audio quality must be one of ${AUDIO_QUALITIES.join(", ")}`);
      write(quality);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispose: () => unsubscribe?.(),
  };
}
