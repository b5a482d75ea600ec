import { useSyncExternalStore } from "react";

// user, guest, bot or service (proto tt.user.v1.AccessToken.token_type).
export type TokenType = string;

export interface StoredToken {
  token: string;
  tokenType: TokenType;
  /** ISO 8601; absent when the server did not say. */
  expiresAt?: string;
}

export interface SessionUser {
  uuid: string;
  email: string;
  role: string;
  nickname?: string;
}

export interface SessionSnapshot {
  accessToken: StoredToken | null;
  user: SessionUser | null;
}

export interface SessionStore {
  getSnapshot(): SessionSnapshot;
  subscribe(listener: () => void): () => void;
  /** A signed-in (user) session, as returned by sign-up or login. */
  signIn(accessToken: StoredToken, user: SessionUser): void;
  /** A guest token for browsing; forgets any user. */
  setGuestToken(accessToken: StoredToken): void;
  /** Forgets everything (logout, revoked session). */
  clear(): void;
  /** Adds what was learnt about the signed-in user later (the profile's nickname). */
  updateUser(patch: Partial<SessionUser>): void;
}

export const SESSION_STORAGE_KEY = "tt-session";

const EMPTY: SessionSnapshot = { accessToken: null, user: null };

export function isTokenLive(token: StoredToken | null, now: number = Date.now()): token is StoredToken {
  if (!token) return false;
  if (!token.expiresAt) return true;
  const expires = Date.parse(token.expiresAt);
  return Number.isNaN(expires) || expires > now;
}

/** Spec 002 §4: signed in means a live token of type user; a guest token is browsing, not signed in. */
export function isSignedIn(snapshot: SessionSnapshot, now: number = Date.now()): boolean {
  return snapshot.accessToken?.tokenType === "user" && isTokenLive(snapshot.accessToken, now);
}

function parse(raw: string | null): SessionSnapshot {
  if (!raw) return EMPTY;
  try {
    const value = JSON.parse(raw) as Partial<SessionSnapshot>;
    const token = value.accessToken;
    if (!token || typeof token.token !== "string" || typeof token.tokenType !== "string") return EMPTY;
    return { accessToken: token, user: value.user ?? null };
  } catch {
    // A value written by an older build or by hand: start over rather than fail to boot.
    return EMPTY;
  }
}

export function createSessionStore(storage: Storage | undefined = globalThis.localStorage): SessionStore {
  let snapshot = parse(storage?.getItem(SESSION_STORAGE_KEY) ?? null);
  const listeners = new Set<() => void>();

  const set = (next: SessionSnapshot) => {
    snapshot = next;
    if (next.accessToken) storage?.setItem(SESSION_STORAGE_KEY, JSON.stringify(next));
    else storage?.removeItem(SESSION_STORAGE_KEY);
    for (const listener of listeners) listener();
  };

  // Another tab signing in or out changes this tab too.
  if (typeof window !== "undefined") {
    window.addEventListener("storage", (event) => {
      if (event.key !== SESSION_STORAGE_KEY || event.storageArea !== storage) return;
      snapshot = parse(event.newValue);
      for (const listener of listeners) listener();
    });
  }

  return {
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    signIn: (accessToken, user) => set({ accessToken, user }),
    setGuestToken: (accessToken) => set({ accessToken, user: null }),
    clear: () => set(EMPTY),
    updateUser(patch) {
      if (snapshot.user) set({ ...snapshot, user: { ...snapshot.user, ...patch } });
    },
  };
}

export function useSessionSnapshot(store: SessionStore): SessionSnapshot {
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
}
