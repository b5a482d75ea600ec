import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createAnalyticsClient, type AnalyticsEvent, type AnalyticsTransport } from "./client.ts";
import { createKitAnalytics, isDiscordHost } from "./page.ts";
import { createKit } from "../kit.ts";

let sent: AnalyticsEvent[];
let beaconed: AnalyticsEvent[];
let loggedIn: boolean;

const transport: AnalyticsTransport = {
  send: async (event) => void sent.push(event),
  beacon: (event) => (beaconed.push(event), true),
};

beforeEach(() => {
  vi.useFakeTimers();
  sent = [];
  beaconed = [];
  loggedIn = false;
});
afterEach(() => vi.useRealTimers());

const client = (extra: Partial<Parameters<typeof createAnalyticsClient>[0]> = {}) =>
  createAnalyticsClient({ transport, isLoggedIn: () => loggedIn, flushIntervalMs: 5000, maxBatch: 3, ...extra });

describe("analytics client", () => {
  it("queues without sending, then sends the batch after the interval", () => {
    const a = client();
    expect(a.track("page-view", { path: "/" })).toBe(true);
    expect(sent).toEqual([]);
    expect(a.pending()).toBe(1);
    vi.advanceTimersByTime(4999);
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual([
      {
        topic: "page-view",
        record: { path: "/" },
        deviceData: { platform: "web", isDiscord: false, isLoggedIn: false },
      },
    ]);
    a.close();
  });

  it("sends at once when maxBatch events wait", () => {
    loggedIn = true;
    const a = client();
    a.track("15-seconds");
    a.track("30-seconds");
    expect(sent).toHaveLength(0);
    a.track("user-song-total-played", { count: 3 });
    expect(sent.map((e) => e.topic)).toEqual(["15-seconds", "30-seconds", "user-song-total-played"]);
    expect(sent[0]?.deviceData.isLoggedIn).toBe(true);
    a.close();
  });

  it("sends for guests only what guests may send, and drops unknown topics", () => {
    const a = client();
    expect(a.track("15-seconds")).toBe(false);
    expect(a.track("shop-action")).toBe(false);
    expect(a.track("nope" as never)).toBe(false);
    expect(a.track("home-rooms-loaded", { roomCount: 4, utmSource: "mail" })).toBe(true);
    expect(a.pending()).toBe(1);
    a.close();
  });

  it("on page hide sends everything at once, guests' events by beacon", () => {
    const a = client();
    a.track("page-view", { path: "/a" });
    loggedIn = true;
    a.track("room-action", { action: "join" });
    Object.defineProperty(document, "visibilityState", { value: "hidden", configurable: true });
    document.dispatchEvent(new Event("visibilitychange"));
    expect(beaconed.map((e) => e.topic)).toEqual(["page-view"]);
    expect(sent.map((e) => e.topic)).toEqual(["room-action"]);
    window.dispatchEvent(new Event("pagehide"));
    expect(a.pending()).toBe(0);
    a.close();
    Object.defineProperty(document, "visibilityState", { value: "visible", configurable: true });
  });

  it("never throws nor blocks: a failing transport is ignored, the queue is bounded", async () => {
    const failing: AnalyticsTransport = {
      send: () => Promise.reject(new Error("offline")),
    };
    const a = createAnalyticsClient({ transport: failing, isLoggedIn: () => true, maxBatch: 1000, maxQueue: 5 });
    for (let i = 0; i < 10; i++) a.track("queue-action", { i });
    expect(a.pending()).toBe(5);
    a.flush();
    await vi.runAllTimersAsync();
    const throwing = createAnalyticsClient({
      transport: {
        send: () => {
          throw new Error("boom");
        },
      },
      isLoggedIn: () => true,
      maxBatch: 1,
    });
    expect(() => throwing.track("login-action")).not.toThrow();
    a.close();
    throwing.close();
  });

  it("sends through the kit: POST /api/audit-service/kinesis with the session's token and keepalive", async () => {
    const calls: Array<{ url: string; init: RequestInit }> = [];
    const fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
      calls.push({ url: String(url), init: init ?? {} });
      return new Response("{}", { status: 200 });
    });
    const kit = createKit({ baseUrl: "https://tt.example", fetch: fetch as typeof globalThis.fetch });
    kit.session.signIn({ token: "t0k", tokenType: "user" }, { uuid: "u", email: "e@x", role: "user" });
    const a = createKitAnalytics(kit);
    a.track("purchase-action", { productId: "p1" });
    a.flush();
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]?.url).toBe("https://tt.example/api/audit-service/kinesis");
    expect(calls[0]?.init.keepalive).toBe(true);
    expect(new Headers(calls[0]?.init.headers).get("Authorization")).toBe("Bearer t0k");
    expect(JSON.parse(String(calls[0]?.init.body))).toMatchObject({
      topic: "purchase-action",
      deviceData: { platform: "web", isLoggedIn: true, isDiscord: false },
    });
    a.close();
  });

  it("knows Discord's activity host", () => {
    expect(isDiscordHost("1234.discordsays.com")).toBe(true);
    expect(isDiscordHost("discordsays.com.evil.example")).toBe(false);
  });
});
