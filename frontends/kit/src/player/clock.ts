// Clock sync with the server (NTP-style): each sample notes the local time before (t0) and after (t1) a call that
// answers the server's time (ts); assuming the answer was stamped half-way, the local clock is ahead by
// offset = (t0 + t1) / 2 − ts, known to ± rtt / 2. Of several samples the ones with the lowest round trips are
// the truest (a slow answer spent its time somewhere unknown, often unevenly between the two ways); their median
// offset is kept and refreshed periodically, so a listener's position is the room's within a few milliseconds of
// network jitter. The samples of recent rounds are pooled (a round taken while the page was busy has no fast
// answer of its own); older ones are dropped, so a clock that moved (a sleeping laptop, an NTP step) is followed.

export interface ClockSample {
  /** Local minus server, ms. */
  offsetMs: number;
  /** Round trip, ms. */
  rttMs: number;
}

/** A server's answer: one time (epoch ms), or when the call arrived and when the answer left (GetClock). */
export type ServerTime = number | { receiveMs: number; sendMs: number };

export interface ClockSyncOptions {
  /** The server's time, e.g. the social service's GetClock. */
  serverTime: () => Promise<ServerTime>;
  now?: () => number;
  /** Samples per sync. Default 5. */
  samples?: number;
  /** How many of the lowest round trips are kept. Default 3. */
  keep?: number;
  /** Re-sync this often (ms) once started. Default 60 s. */
  refreshMs?: number;
  /**
   * The waits before the second, third, … rounds after start(), before refreshMs takes over. The first round runs
   * while the page loads, when a busy main thread lengthens round trips unevenly and the offset can be tens of
   * milliseconds off; rounds a few seconds later, on a settled page, correct it. Default [2 s, 8 s].
   */
  warmupMs?: readonly number[];
  /** Samples older than this (ms) are dropped from the pool. Default 2 × refreshMs. */
  maxSampleAgeMs?: number;
}

export interface ClockSync {
  /** Local minus server (ms): elapsedPosition's clockOffsetMs. 0 until the first sync. */
  offset(): number;
  /** The server's clock now (epoch ms), by the kept offset. */
  serverNow(): number;
  /** The round trip of the best sample (ms), NaN before one. */
  bestRttMs(): number;
  /** Takes a round of samples and updates the offset; resolves with it. */
  sync(): Promise<number>;
  /** Adds one measured sample (t0, server time, t1), e.g. from a stream's first message. */
  addSample(t0: number, serverTime: ServerTime, t1: number): void;
  /** Syncs now and every refreshMs until stop(). */
  start(): void;
  stop(): void;
  subscribe(listener: () => void): () => void;
}

/**
 * One sample from a request sent at t0 and answered at t1 with the server's time. With the server's receive and
 * send times: offset = ((t0 − receive) + (t1 − send)) / 2, round trip = (t1 − t0) − (send − receive).
 */
export function clockSample(t0: number, server: ServerTime, t1: number): ClockSample {
  const { receiveMs, sendMs } = typeof server === "number" ? { receiveMs: server, sendMs: server } : server;
  return {
    offsetMs: (t0 - receiveMs + (t1 - sendMs)) / 2,
    rttMs: Math.max(0, t1 - t0 - Math.max(0, sendMs - receiveMs)),
  };
}

const finite = (server: ServerTime) =>
  typeof server === "number" ? Number.isFinite(server) : Number.isFinite(server.receiveMs + server.sendMs);

/** The median offset of the `keep` samples with the lowest round trips. */
export function bestOffset(samples: readonly ClockSample[], keep = 3): number {
  if (samples.length === 0) return 0;
  const best = [...samples].sort((a, b) => a.rttMs - b.rttMs).slice(0, Math.max(1, keep));
  const offsets = best.map((sample) => sample.offsetMs).sort((a, b) => a - b);
  const middle = Math.floor(offsets.length / 2);
  return offsets.length % 2 === 1 ? offsets[middle]! : (offsets[middle - 1]! + offsets[middle]!) / 2;
}

export function createClockSync(options: ClockSyncOptions): ClockSync {
  const now = options.now ?? Date.now;
  const rounds = options.samples ?? 5;
  const keep = options.keep ?? 3;
  const refreshMs = options.refreshMs ?? 60_000;
  const warmupMs = options.warmupMs ?? [2_000, 8_000];
  const maxAgeMs = options.maxSampleAgeMs ?? 2 * refreshMs;
  // The recent rounds' samples and any added from streams, each with the local time it was taken.
  let samples: (ClockSample & { at: number })[] = [];
  let offset = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running = false;
  const listeners = new Set<() => void>();

  const pool = (added: ClockSample[]) => {
    const at = now();
    samples = [
      ...samples.filter((s) => s.at <= at && at - s.at <= maxAgeMs),
      ...added.map((s) => ({ ...s, at })),
    ].slice(-4 * rounds);
    offset = bestOffset(samples, keep);
    for (const listener of listeners) listener();
  };

  const sync = async () => {
    const round: ClockSample[] = [];
    for (let i = 0; i < rounds; i += 1) {
      const t0 = now();
      let serverTime: ServerTime;
      try {
        serverTime = await options.serverTime();
      } catch {
        continue;
      }
      const t1 = now();
      if (finite(serverTime)) round.push(clockSample(t0, serverTime, t1));
    }
    if (round.length > 0) pool(round);
    return offset;
  };

  const loop = (round: number) => {
    if (!running) return;
    void sync().finally(() => {
      if (running) timer = setTimeout(() => loop(round + 1), warmupMs[round] ?? refreshMs);
    });
  };

  return {
    offset: () => offset,
    serverNow: () => now() - offset,
    bestRttMs: () => (samples.length === 0 ? Number.NaN : Math.min(...samples.map((s) => s.rttMs))),
    sync,
    addSample: (t0, serverTime, t1) => pool([clockSample(t0, serverTime, t1)]),
    start() {
      if (running) return;
      running = true;
      loop(0);
    },
    stop() {
      running = false;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export interface DriftCorrectionOptions {
  /** controller.seekTo */
  seekTo: (serverPosition: number) => unknown;
  /** The room's position of the current song (seconds), or undefined while nothing plays. */
  position: () => number | undefined;
  /** How often to correct (ms). Default 1000. */
  intervalMs?: number;
}

/** Brings the player to the room's position every intervalMs; returns the stop function. */
export function startDriftCorrection({ seekTo, position, intervalMs = 1000 }: DriftCorrectionOptions): () => void {
  const tick = () => {
    const at = position();
    if (at !== undefined && Number.isFinite(at)) seekTo(at);
  };
  const timer = setInterval(tick, intervalMs);
  return () => clearInterval(timer);
}
