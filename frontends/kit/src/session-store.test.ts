import { describe, expect, it, vi } from "vitest";
import { createSessionStore, isSignedIn, SESSION_STORAGE_KEY } from "./session-store.ts";
import { MemoryStorage } from "./testing/memory-storage.ts";

const later = new Date(Date.now() + 60_000).toISOString();
const earlier = new Date(Date.now() - 60_000).toISOString();
const user = { uuid: "u1", email: "ada@example.com", role: "user" };

describe("session store", () => {
  it("keeps a user session in storage and reads it back after a reload", () => {
    const storage = new MemoryStorage();
    createSessionStore(storage).signIn({ token: "t1", tokenType: "user", expiresAt: later }, user);
    const reloaded = createSessionStore(storage);
    expect(reloaded.getSnapshot()).toEqual({ accessToken: { token: "t1", tokenType: "user", expiresAt: later }, user });
    expect(isSignedIn(reloaded.getSnapshot())).toBe(true);
  });

  it("counts only a live token of type user as signed in (spec 002 §4)", () => {
    const store = createSessionStore(new MemoryStorage());
    store.setGuestToken({ token: "g", tokenType: "guest", expiresAt: later });
    expect(isSignedIn(store.getSnapshot())).toBe(false);
    store.signIn({ token: "b", tokenType: "bot", expiresAt: later }, user);
    expect(isSignedIn(store.getSnapshot())).toBe(false);
    store.signIn({ token: "u", tokenType: "user", expiresAt: earlier }, user);
    expect(isSignedIn(store.getSnapshot())).toBe(false);
  });

  it("forgets the user when a guest token replaces the session, and everything on clear", () => {
    const storage = new MemoryStorage();
    const store = createSessionStore(storage);
    store.signIn({ token: "u", tokenType: "user" }, user);
    store.setGuestToken({ token: "g", tokenType: "guest" });
    expect(store.getSnapshot().user).toBeNull();
    store.clear();
    expect(store.getSnapshot()).toEqual({ accessToken: null, user: null });
    expect(storage.getItem(SESSION_STORAGE_KEY)).toBeNull();
  });

  it("tells subscribers about every change", () => {
    const store = createSessionStore(new MemoryStorage());
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    store.setGuestToken({ token: "g", tokenType: "guest" });
    store.clear();
    unsubscribe();
    store.setGuestToken({ token: "g2", tokenType: "guest" });
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it("starts signed out when the stored value is not a session", () => {
    const storage = new MemoryStorage();
    storage.setItem(SESSION_STORAGE_KEY, "{not json");
    expect(createSessionStore(storage).getSnapshot().accessToken).toBeNull();
    storage.setItem(SESSION_STORAGE_KEY, JSON.stringify({ accessToken: { token: 3 } }));
    expect(createSessionStore(storage).getSnapshot().accessToken).toBeNull();
  });
});
