// The listeners of bench:stage: N join streams of one room, read as a thin Connect client does, on HTTP/2 sessions
// shared by many streams, split over worker threads. A real room's listeners each read their own messages; one thread
// reading 10,000 takes over 100 ms per patch by itself (Node's HTTP/2 stream machinery, about 10 µs a message), and the
// bench would measure its load generator. With T threads each holds n / T listeners on its own sessions (listener i
// of a thread on its session i mod sessions, session k on URL k mod URLs) and records when each got what; the bench's
// thread asks them by message (arrival times on the shared clock, performance.timeOrigin + now).
import http2 from "node:http2";
import { isMainThread, parentPort, threadId, Worker, workerData } from "node:worker_threads";
import { create, fromBinary, toBinary, toJson, type JsonValue } from "@bufbuild/protobuf";
import { BinaryReader } from "@bufbuild/protobuf/wire";
import { StageSchema } from "@tt/proto/tt/social/v1/stage_pb";
import { JoinRequestSchema, JoinResponseSchema } from "@tt/proto/tt/social/v1/stage_service_pb";
import { connectServerStream, type Json } from "@tt/kit/bench";
import { applyPatch } from "rfc6902";

/**
 * What a listener reads of each JoinResponse: its kind (the oneof's field number) and, for a patch, its version,
 * with protobuf-es's wire reader (the message is not built). The load generator reads every listener's messages on one
 * core, where a real listener decodes its own; building each message (about 10 µs) was a third of this process's work
 * while a patch reached 10,000 listeners. The first listener builds its messages (it keeps the stage), and so would
 * anyone who needs more than the version.
 */
export function peekJoinResponse(bytes: Uint8Array): { field: number; version: bigint } {
  const reader = new BinaryReader(bytes);
  while (reader.pos < reader.len) {
    const [field, wireType] = reader.tag();
    if (field === 3) {
      const patch = new BinaryReader(reader.bytes());
      while (patch.pos < patch.len) {
        const [f, w] = patch.tag();
        if (f === 1) return { field, version: BigInt(patch.int64()) };
        patch.skip(w, f);
      }
      return { field, version: 0n };
    }
    if (field >= 2) return { field, version: -1n };
    reader.skip(wireType, field);
  }
  return { field: 0, version: -1n };
}

/**
 * A listener's Join stream read as a thin Connect client does (HTTP/2, binary Connect protocol): the request
 * message enveloped, then each enveloped response's payload handed on (see peekJoinResponse), as the bare
 * broadcast's clients get theirs. Connect's generic client pipeline would cost the load generator (this process, one
 * core) tens of microseconds per message and listener, and the bench would measure its own client. The streams end
 * when their sessions close (no abort signal each: a signal's listeners are a list walked on every add).
 */
function joinStream(
  session: http2.ClientHttp2Session,
  room: string,
  token: string,
  onMessage: (payload: Uint8Array) => void,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const stream = connectServerStream(session, {
      path: "/tt.social.v1.StageService/Join",
      request: toBinary(JoinRequestSchema, create(JoinRequestSchema, { room })),
      token,
      onRefused: reject,
    });
    let buf: Buffer = Buffer.alloc(0);
    stream.on("data", (chunk: Buffer) => {
      buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
      while (buf.length >= 5) {
        const len = buf.readUInt32BE(1);
        if (buf.length < 5 + len) break;
        const flags = buf[0]!;
        const payload = buf.subarray(5, 5 + len);
        buf = buf.subarray(5 + len);
        if (flags & 0b10) {
          const end = JSON.parse(payload.toString()) as { error?: { message?: string } };
          if (end.error) reject(new Error(`join ended: ${end.error.message}`));
        } else {
          onMessage(payload);
        }
      }
    });
    stream.on("close", () => resolve());
    stream.on("error", reject);
  });
}

/** One thread's listeners of a room on `sessions` HTTP/2 sessions; arrival times of every patch version per listener. */
class ThreadAudience {
  private closing = false;
  /** Room activities (the oneof's field 7) received by all listeners so far. */
  activities = 0;
  private activitiesWanted = -1;
  private onActivities: (() => void) | null = null;
  readonly arrivals = new Map<bigint, Float64Array>();
  readonly counts = new Map<bigint, number>();
  readonly firstMessage = new Map<bigint, Uint8Array>();
  private readonly waiters = new Map<bigint, () => void>();
  stage: JsonValue = null;
  version = -1n;
  joined = 0;
  failures: unknown[] = [];
  private onStage: (() => void) | null = null;
  readonly sessions: http2.ClientHttp2Session[];

  /** `sessions` HTTP/2 sessions spread over `urls` in turn (listener i on session i mod sessions). */
  constructor(
    urls: string[],
    readonly n: number,
    sessions: number,
  ) {
    this.sessions = Array.from({ length: sessions }, (_, k) => http2.connect(urls[k % urls.length]!));
  }

  /** Opens the streams of listeners `from` to `to`, at most `parallel` joins in flight, until each has its first message (the state). */
  async join(room: string, tokens: string[], parallel = 100, from = 0, to = this.n): Promise<number> {
    const t0 = performance.now();
    let next = from;
    const starters = Array.from({ length: parallel }, async () => {
      while (next < to) {
        const i = next++;
        const joined = new Promise<void>((resolve) => (this.onJoinOf[i] = resolve));
        void this.listen(i, room, tokens[i]!);
        await joined;
      }
    });
    const progress = setInterval(
      () => console.log(`  … thread ${threadId}: ${this.joined} of ${this.n} joined, ${this.failures.length} failed`),
      10_000,
    );
    await Promise.all(starters).finally(() => clearInterval(progress));
    return performance.now() - t0;
  }

  private readonly onJoinOf: (() => void)[] = [];

  private async listen(i: number, room: string, token: string): Promise<void> {
    try {
      await joinStream(this.sessions[i % this.sessions.length]!, room, token, (payload) => {
        const now = performance.now();
        const { field, version: v } = peekJoinResponse(payload);
        if (field === 2) {
          this.joined++;
          this.onJoinOf[i]?.();
          if (i === 0) {
            const m = fromBinary(JoinResponseSchema, payload);
            if (m.kind.case !== "state") return;
            this.stage = toJson(StageSchema, m.kind.value);
            this.version = m.kind.value.version;
            this.onStage?.();
          }
        } else if (field === 7) {
          this.activities++;
          if (this.activities === this.activitiesWanted) this.onActivities?.();
        } else if (field === 3) {
          let a = this.arrivals.get(v);
          if (!a) {
            this.arrivals.set(v, (a = new Float64Array(this.n)));
            this.firstMessage.set(v, payload.slice());
          }
          if (a[i] === 0) {
            a[i] = now;
            const c = (this.counts.get(v) ?? 0) + 1;
            this.counts.set(v, c);
            if (c === this.n) this.waiters.get(v)?.();
          }
          if (i === 0 && v === this.version + 1n) {
            const m = fromBinary(JoinResponseSchema, payload);
            if (m.kind.case !== "patch") return;
            applyPatch(this.stage, JSON.parse(m.kind.value.operations));
            this.version = v;
            this.onStage?.();
          }
        }
      });
    } catch (err) {
      if (!this.closing) this.failures.push(err);
    } finally {
      this.onJoinOf[i]?.();
    }
  }

  /** Waits until listener 0's stage passes `test` (it is rebuilt from the state and the patches). */
  until(test: (st: Json) => boolean, what: string, timeoutMs = 120_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`timed out waiting for ${what}: ${JSON.stringify(this.stage)}`)),
        timeoutMs,
      );
      const check = () => {
        if (this.stage && test(this.stage as Json)) {
          clearTimeout(timer);
          this.onStage = null;
          resolve();
        }
      };
      this.onStage = check;
      check();
    });
  }

  /** Resolves once every listener has version `v` (or after `timeoutMs`, with whoever has it). */
  all(v: bigint, timeoutMs = 60_000): Promise<void> {
    if ((this.counts.get(v) ?? 0) >= this.n) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.waiters.set(v, () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /**
   * Resolves once the listeners have `count` room activities in all (or after `timeoutMs`): a seat change's patch is
   * followed by its activity (the seat taken or left) to every listener, and the next change is measured once that
   * broadcast is over too, not while it still runs.
   */
  activitiesReach(count: number, timeoutMs = 60_000): Promise<void> {
    if (this.activities >= count) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.activitiesWanted = count;
      this.onActivities = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  close(): void {
    this.closing = true;
    for (const s of this.sessions) s.destroy();
  }
}

// ---------------------------------------------------------------- the threads

/** What the bench's thread asks a listeners' thread (each with an id its answer carries). */
type Ask =
  | { op: "join"; room: string; tokens: string[]; parallel: number; from: number; to: number }
  | { op: "untilGuests"; guests: number; timeoutMs: number }
  | { op: "untilPlay"; timeoutMs: number }
  | { op: "collect"; version: string; activitiesEach: number }
  | { op: "close" };
type ToThread = Ask & { id: number };

/** What a thread answers to "collect": each of its listeners' arrival of the version (0: none) and instance (URL index). */
interface Collected {
  arrivals: Float64Array;
  instances: Uint8Array;
  first: Uint8Array | undefined;
}

/** A worker thread's loop: its ThreadAudience, asked by the bench's thread. */
function serveThread(): void {
  const { urls, n, sessions } = workerData as { urls: string[]; n: number; sessions: number };
  const audience = new ThreadAudience(urls, n, sessions);
  const port = parentPort!;
  const stageOf = () => audience.stage as Json;
  port.on("message", (m: ToThread) => {
    void (async (): Promise<unknown> => {
      switch (m.op) {
        case "join": {
          const tokens = m.tokens;
          await audience.join(m.room, tokens, m.parallel, m.from, m.to);
          return { joined: audience.joined, failures: audience.failures.map(String) };
        }
        case "untilGuests":
          return audience
            .until((st) => (st.listeners?.guests ?? 0) >= m.guests, `${m.guests} guests`, m.timeoutMs)
            .then(
              () => "",
              () => `the stage counted ${String(stageOf()?.listeners?.guests ?? 0)} of ${m.guests} guests`,
            );
        case "untilPlay":
          return audience
            .until((st) => Boolean(st.play), "a play", m.timeoutMs)
            .then(
              () => true,
              () => false,
            );
        case "collect": {
          const v = BigInt(m.version);
          await audience.all(v);
          await audience.activitiesReach(n * m.activitiesEach);
          const local = audience.arrivals.get(v) ?? new Float64Array(n);
          const arrivals = local.map((t) => (t > 0 ? performance.timeOrigin + t : 0));
          const instances = Uint8Array.from({ length: n }, (_, i) => (i % sessions) % urls.length);
          return { arrivals, instances, first: audience.firstMessage.get(v) } satisfies Collected;
        }
        case "close":
          audience.close();
          return null;
      }
    })().then((result) => port.postMessage({ id: m.id, result }));
  });
}

if (!isMainThread && (workerData as { audience?: boolean } | undefined)?.audience) serveThread();

/**
 * N listeners of one room over `threads` worker threads (listener i of the room on thread i mod threads), each thread
 * on its share of `sessions` HTTP/2 sessions (at least one per URL, the same number on each).
 */
export class Audience {
  private readonly workers: Worker[];
  private readonly pending = new Map<number, (v: unknown) => void>();
  private nextId = 1;
  /** Each thread's listeners: thread t holds the room's listeners t, t + threads, … */
  private readonly counts: number[];
  joined = 0;
  failures: string[] = [];

  /** The HTTP/2 sessions in all (each thread's: a multiple of the URLs, about `sessions` / `threads`). */
  readonly sessions: number;

  constructor(
    urls: string[],
    readonly n: number,
    sessions: number,
    readonly threads: number,
  ) {
    this.counts = Array.from({ length: threads }, (_, t) => Math.floor(n / threads) + (t < n % threads ? 1 : 0));
    const each = Math.max(1, Math.round(sessions / threads / urls.length)) * urls.length;
    this.sessions = each * threads;
    this.workers = this.counts.map((count) => {
      const worker = new Worker(new URL(import.meta.url), {
        workerData: { audience: true, urls, n: count, sessions: each },
      });
      worker.on("message", (m: { id: number; result: unknown }) => this.pending.get(m.id)?.(m.result));
      worker.on("error", (err) => this.failures.push(String(err)));
      return worker;
    });
  }

  private ask<T>(t: number, m: Ask): Promise<T> {
    return new Promise((resolve) => {
      const id = this.nextId++;
      this.pending.set(id, (v) => {
        this.pending.delete(id);
        resolve(v as T);
      });
      this.workers[t]!.postMessage({ ...m, id });
    });
  }

  /**
   * Opens the streams of the room's listeners `from` to `to` (tokens[i] is listener i's), `parallel` joins in flight in
   * all, until each has its first message (the state); the time it took (ms).
   */
  async join(room: string, tokens: string[], parallel: number, from: number, to: number): Promise<number> {
    const t0 = performance.now();
    const T = this.threads;
    // Thread t's listener j is the room's listener j * T + t.
    const local = (i: number, t: number) => Math.ceil((i - t) / T);
    const results = await Promise.all(
      this.workers.map((_, t) =>
        this.ask<{ joined: number; failures: string[] }>(t, {
          op: "join",
          room,
          tokens: tokens.filter((_, i) => i % T === t),
          parallel: Math.max(1, Math.round(parallel / T)),
          from: local(from, t),
          to: local(to, t),
        }),
      ),
    );
    this.joined = results.reduce((sum, r) => sum + r.joined, 0);
    this.failures = results.flatMap((r) => r.failures);
    return performance.now() - t0;
  }

  /** Waits until the first listener's stage counts `guests` guests: "" then, else what it counted. */
  untilGuests(guests: number, timeoutMs: number): Promise<string> {
    return this.ask(0, { op: "untilGuests", guests, timeoutMs });
  }

  /** Whether the first listener's stage has a play within `timeoutMs`. */
  untilPlay(timeoutMs: number): Promise<boolean> {
    return this.ask(0, { op: "untilPlay", timeoutMs });
  }

  /**
   * Once every listener has `version` (or a minute passed) and `activitiesEach` room activities: each listener's
   * arrival of it (performance.timeOrigin + now, 0 for none) and instance (the URL index), in room order, and the
   * first listener's message.
   */
  async collect(version: bigint, activitiesEach: number): Promise<Collected> {
    const parts = await Promise.all(
      this.workers.map((_, t) => this.ask<Collected>(t, { op: "collect", version: String(version), activitiesEach })),
    );
    const arrivals = new Float64Array(this.n);
    const instances = new Uint8Array(this.n);
    parts.forEach((part, t) =>
      part.arrivals.forEach((at, j) => {
        arrivals[j * this.threads + t] = at;
        instances[j * this.threads + t] = part.instances[j]!;
      }),
    );
    return { arrivals, instances, first: parts[0]!.first };
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((_, t) => this.ask(t, { op: "close" })));
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
