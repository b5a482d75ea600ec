// The analytics client (spec 002 §7 "Analytics events"): track() only queues — it never waits, never throws,
// never blocks the page. The queue is sent every few seconds or once it holds `maxBatch` events, each event as
// POST /api/audit-service/kinesis with `keepalive`, so a send outlives a navigation; when the page is hidden
// the queue is sent at once (fetch keepalive, or navigator.sendBeacon for events a guest may send, since a
// beacon cannot carry the bearer token). Events a guest may not send are dropped unless a user is signed in.
import {
  ANALYTICS_TOPICS,
  GUEST_ANALYTICS_TOPICS,
  type AnalyticsDeviceData,
  type AnalyticsRecord,
  type AnalyticsTopic,
} from "./topics.ts";

export interface AnalyticsEvent {
  topic: AnalyticsTopic;
  record: AnalyticsRecord;
  deviceData: AnalyticsDeviceData;
}

export interface AnalyticsTransport {
  /** Sends one event with fetch (keepalive); resolves when answered. Failures are ignored by the client. */
  send(event: AnalyticsEvent): Promise<unknown>;
  /** Hands an anonymous event to navigator.sendBeacon; false when the browser refused it. Optional. */
  beacon?(event: AnalyticsEvent): boolean;
}

export interface AnalyticsClientOptions {
  transport: AnalyticsTransport;
  /** True while a user (not a guest) is signed in. */
  isLoggedIn: () => boolean;
  /** True inside Discord (the Discord activity). Default false. */
  isDiscord?: () => boolean;
  /** Default "web". */
  platform?: AnalyticsDeviceData["platform"];
  /** Send the queue this often (ms). Default 5000. */
  flushIntervalMs?: number;
  /** Send at once when this many events wait. Default 20. */
  maxBatch?: number;
  /** Keep at most this many events; older ones are dropped first. Default 200. */
  maxQueue?: number;
  /** Where page-hide is listened for; default the page's document and window (none outside a browser). */
  page?: { document?: Document; window?: Window };
}

export interface AnalyticsClient {
  /** Queues an event; returns false when it is dropped (unknown topic, or not for guests). */
  track(topic: AnalyticsTopic, record?: AnalyticsRecord): boolean;
  /** Sends every queued event now. */
  flush(opts?: { hidden?: boolean }): void;
  /** How many events wait. */
  pending(): number;
  /** Stops the timer and the page listeners (queued events are sent first). */
  close(): void;
}

const KNOWN = new Set<string>(ANALYTICS_TOPICS);

export function createAnalyticsClient(opts: AnalyticsClientOptions): AnalyticsClient {
  const interval = opts.flushIntervalMs ?? 5000;
  const maxBatch = opts.maxBatch ?? 20;
  const maxQueue = opts.maxQueue ?? 200;
  let queue: AnalyticsEvent[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;

  const send = (event: AnalyticsEvent) => {
    try {
      void opts.transport.send(event).catch(() => undefined);
    } catch {
      // a transport that throws synchronously must not break the page either
    }
  };

  const flush = ({ hidden = false } = {}) => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    const batch = queue;
    queue = [];
    for (const event of batch) {
      // A hidden page may never run another task: a beacon is the surest for what needs no token.
      if (hidden && opts.transport.beacon && !event.deviceData.isLoggedIn && opts.transport.beacon(event)) continue;
      send(event);
    }
  };

  const schedule = () => {
    if (queue.length >= maxBatch) flush();
    else timer ??= setTimeout(() => flush(), interval);
  };

  const win = opts.page?.window ?? (typeof window === "undefined" ? undefined : window);
  const doc = opts.page?.document ?? (typeof document === "undefined" ? undefined : document);
  const onVisibility = () => {
    if (doc?.visibilityState === "hidden") flush({ hidden: true });
  };
  const onPageHide = () => flush({ hidden: true });
  doc?.addEventListener("visibilitychange", onVisibility);
  win?.addEventListener("pagehide", onPageHide);

  return {
    track(topic, record = {}) {
      try {
        if (!KNOWN.has(topic)) return false;
        const isLoggedIn = opts.isLoggedIn();
        if (!isLoggedIn && !GUEST_ANALYTICS_TOPICS.has(topic)) return false;
        queue.push({
          topic,
          record,
          deviceData: { platform: opts.platform ?? "web", isDiscord: opts.isDiscord?.() ?? false, isLoggedIn },
        });
        if (queue.length > maxQueue) queue.splice(0, queue.length - maxQueue);
        schedule();
        return true;
      } catch {
        return false;
      }
    },
    flush,
    pending: () => queue.length,
    close() {
      flush();
      doc?.removeEventListener("visibilitychange", onVisibility);
      win?.removeEventListener("pagehide", onPageHide);
    },
  };
}
