import { MEDIA_CACHE_TTL_MS } from "./constants.ts";

/**
 * Spec 002 §9: fetched media is cached for an hour, and each blob URL is revoked an hour plus the song's
 * duration after it was made, so a song that starts just before its entry goes stale still plays to the end.
 * Used for the URL providers' plain (http) streams; HLS segments are immutable URLs the browser's HTTP cache
 * keeps.
 */
export interface MediaCache {
  /** A blob URL of the media at `url`: the cached one while fresh, otherwise fetched anew. */
  get(url: string, durationSeconds: number): Promise<string>;
  /** How many entries are fresh (tests, diagnostics). */
  size(): number;
  /** Revokes every blob URL now (the player is gone). */
  clear(): void;
}

export interface MediaCacheOptions {
  fetch?: typeof globalThis.fetch;
  /** Extra request headers (the bearer token) per URL. */
  headers?: (url: string) => HeadersInit | undefined;
  createObjectURL?: (blob: Blob) => string;
  revokeObjectURL?: (url: string) => void;
  now?: () => number;
  ttlMs?: number;
}

interface Entry {
  blobUrl: Promise<string>;
  fetchedAt: number;
}

export function createMediaCache(options: MediaCacheOptions = {}): MediaCache {
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const createObjectURL = options.createObjectURL ?? ((blob: Blob) => URL.createObjectURL(blob));
  const revokeObjectURL = options.revokeObjectURL ?? ((url: string) => URL.revokeObjectURL(url));
  const now = options.now ?? Date.now;
  const ttl = options.ttlMs ?? MEDIA_CACHE_TTL_MS;
  const entries = new Map<string, Entry>();
  // Every blob URL not yet revoked, with its revocation timer.
  const live = new Map<string, ReturnType<typeof setTimeout>>();

  const revoke = (blobUrl: string) => {
    const timer = live.get(blobUrl);
    if (timer === undefined) return;
    clearTimeout(timer);
    live.delete(blobUrl);
    revokeObjectURL(blobUrl);
  };

  const load = async (url: string, durationSeconds: number): Promise<string> => {
    const headers = options.headers?.(url);
    const response = await doFetch(url, headers ? { headers } : undefined);
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    const blobUrl = createObjectURL(await response.blob());
    const duration = Number.isFinite(durationSeconds) && durationSeconds > 0 ? durationSeconds : 0;
    live.set(
      blobUrl,
      setTimeout(() => revoke(blobUrl), ttl + duration * 1000),
    );
    return blobUrl;
  };

  return {
    get(url, durationSeconds) {
      const cached = entries.get(url);
      if (cached && now() - cached.fetchedAt < ttl) return cached.blobUrl;
      const entry: Entry = { blobUrl: load(url, durationSeconds), fetchedAt: now() };
      entries.set(url, entry);
      // A failed fetch is not cached: the next play tries again.
      entry.blobUrl.catch(() => {
        if (entries.get(url) === entry) entries.delete(url);
      });
      return entry.blobUrl;
    },
    size() {
      let fresh = 0;
      for (const entry of entries.values()) if (now() - entry.fetchedAt < ttl) fresh += 1;
      return fresh;
    },
    clear() {
      entries.clear();
      for (const blobUrl of [...live.keys()]) revoke(blobUrl);
    },
  };
}
