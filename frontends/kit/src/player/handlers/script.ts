// Loads an outside provider's SDK script once per page, on first need (never on the first page load): the
// YouTube IFrame API, Spotify's Web Playback SDK, Apple's MusicKit JS. A failed load is tried again next time.

const loading = new Map<string, Promise<void>>();

export interface ScriptHost {
  /** Appends a <script src> and calls back on load or error (a fake in unit tests). */
  inject(src: string, onLoad: () => void, onError: (error: Error) => void): void;
}

export const documentScriptHost: ScriptHost = {
  inject(src, onLoad, onError) {
    const script = document.createElement("script");
    script.src = src;
    script.async = true;
    script.onload = () => onLoad();
    script.onerror = () => onError(new Error(`Could not load ${src}`));
    document.head.appendChild(script);
  },
};

/**
 * Loads `src` once. `ready` (optional) resolves when the SDK says it is usable (YouTube and Spotify announce it
 * through a global callback after the script itself has loaded).
 */
export function loadScript(src: string, host: ScriptHost = documentScriptHost, ready?: Promise<void>): Promise<void> {
  let pending = loading.get(src);
  if (!pending) {
    pending = new Promise<void>((resolve, reject) => host.inject(src, resolve, reject)).then(() => ready);
    loading.set(src, pending);
    pending.catch(() => loading.delete(src));
  }
  return pending;
}

/** Tests: forget every loaded script. */
export function resetScripts(): void {
  loading.clear();
}
