// Live stage benchmark (issue 14): how fast one stage change reaches every listener of a room, and what a listener
// costs the process that serves it.
//
// 1. fan-out: one room, N listeners (default 2,000) on Connect server streams (StageService.Join) through the
//    gateway; a stage change (a DJ taking the room's second seat, or leaving it: the two in turn, --changes of them
//    after a warm-up) → the time until each listener has the patch: p50/p99 over all listeners and changes. Baseline, same run, same payload (the patch's JoinResponse in binary), same number
//    of clients: a bare WebSocket broadcast (`ws`) from the same server process. Targets: p99 ≤ 100 ms and
//    ≤ 1.5× the bare broadcast's p99.
// 2. scale: one room with 10,000 listeners on the one instance: p99 of a patch and memory per listener (RSS and
//    heap of the server process, after a GC). The listeners join in two halves; what one more listener costs is the
//    second half's growth divided by its listeners (the first half also pays what the process grows once, whatever
//    the count: V8's young generation and code, the allocator's arenas); the growth from no listeners is printed
//    beside it. Targets: ≤ 500 ms, ≤ 30 KB, and the 10,000 joins ≤ 10 s (issue 29).
//
// The server is the all-in-one platform (gateway, social and every other service in one process, on a fresh
// PostgreSQL database and the real NATS), run as a child process so its memory is its own; the listeners are in
// this process, on HTTP/2 sessions shared by many streams, each read as a thin Connect client does (the enveloped
// binary messages; each one's kind and version read with protobuf-es's wire reader, the bare broadcast's clients
// read theirs the same way), so the load generator is not what is measured. Each listener is a guest (its own token,
// signed with the platform's key); with --signed-up, the listeners of parts 2 and 4 are signed-up users instead
// (accounts made in the user service's tables), whose admission asks the user service for their account role and
// reads their chat blocks.
//
// 4. two instances (issue 29): one room of 10,000 listeners on the platform as a cluster runs it (a process per
//    service) with two social processes, 5,000 listeners joined to each; seat changes through the gateway. Targets:
//    patch p99 ≤ 150 ms at every listener, nothing missing. (Run after part 2's platform has stopped.)
// 3. sync: ten headless Chromium pages in one room, each player's drift from the server's position of the play
//    (sync.ts, which says how both are read). Target: p95 ≤ 25 ms.
//
//   npm run bench:stage [-- --listeners 2000 --scale-listeners 10000 (0: no scale part) --changes 20
//                          --streams-per-session 250 --sync-pages 10 (0: no sync part)
//                          --two-instance-listeners 10000 (0: no two-instance part) --signed-up]
//   (BENCH_DATABASE_URL, BENCH_NATS_URL to change where the server keeps its data; BENCH_HEAP_SNAPSHOT=<dir> writes
//   the server's heap before and after the joins of each part, to see what a listener holds)
import { fork, type ChildProcess } from "node:child_process";
import { generateKeyPairSync, randomUUID } from "node:crypto";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { getHeapStatistics, writeHeapSnapshot } from "node:v8";
import http2 from "node:http2";
import { create, fromBinary, toBinary, toJson, type JsonValue } from "@bufbuild/protobuf";
import { StageSchema } from "@tt/proto/tt/social/v1/stage_pb";
import { BinaryReader } from "@bufbuild/protobuf/wire";
import { JoinRequestSchema, JoinResponseSchema } from "@tt/proto/tt/social/v1/stage_service_pb";
import {
  connectServerStream,
  loadAverage as load,
  percentile as pct,
  platformTokenSigner,
  restCall,
  type Json,
  type RestCall,
} from "@tt/kit/bench";
import { applyPatch } from "rfc6902";
import WebSocket, { WebSocketServer } from "ws";
import { measureSync } from "./sync.ts";

const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const NATS_URL = process.env.BENCH_NATS_URL ?? "nats://127.0.0.1:4222";
const ADMIN = { email: "bench-admin@bench.test", password: "bench-admin-password-1" };

type ToServer =
  | { id: number; op: "mem" }
  | { id: number; op: "ws-start" }
  | { id: number; op: "ws-send"; b64: string }
  | { id: number; op: "users"; n: number };
type FromServer = { ready: { url: string } } | { id: number; result: unknown } | { failed: string };

// ---------------------------------------------------------------- the server process (the platform + a ws server)

/**
 * `n` accounts with their profiles in the user service's tables, in one statement (signing up 10,000 through the API
 * would hash as many passwords): their uuids, for tokens signed with the platform's key.
 */
async function seedUsers(databaseUrl: string, n: number): Promise<string[]> {
  const { initServiceOrm } = await import("@tt/kit");
  const { userServiceDefinition } = await import("@tt/user-service");
  const orm = await initServiceOrm(databaseUrl, userServiceDefinition);
  try {
    const run = randomUUID().slice(0, 8);
    // Each with its profile, as a sign-up makes them.
    const rows: { id: string }[] = await orm.em.getConnection().execute(
      `with u as (
         insert into "user"."users" (id, email, password_hash, created_at, updated_at)
         select gen_random_uuid(), 'listener-' || g || '-' || ? || '@bench.test', '', now(), now()
         from generate_series(1, ?) g returning id)
       insert into "user"."profile" (user_id, nickname) select id, 'listener' from u returning user_id as id`,
      [run, n],
    );
    return rows.map((r) => r.id);
  } finally {
    await orm.close();
  }
}

async function serve(): Promise<void> {
  const { createTestDatabase } = await import("@tt/kit/testing");
  const { startAllInOne } = await import("@tt/platform");
  const db = await createTestDatabase(DATABASE_URL);
  const platform = await startAllInOne({
    databaseUrl: db.url,
    natsUrl: NATS_URL,
    port: 0,
    host: "127.0.0.1",
    env: {
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "error",
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      JWT_PRIVATE_KEY: process.env.BENCH_JWT_PRIVATE_KEY!,
      // The DJ holds no join stream of their own here; keep the seat for the whole run.
      SOCIAL_DJ_GRACE_MS: String(3_600_000),
    },
  });
  let wss: WebSocketServer | null = null;
  const send = (m: FromServer) => process.send!(m);
  process.on("message", (m: ToServer) => {
    void (async () => {
      if (m.op === "mem") {
        for (let i = 0; i < 3; i++) globalThis.gc?.();
        const u = process.memoryUsage();
        // BENCH_HEAP_SNAPSHOT=<dir>: a heap snapshot at each measure, to see what a listener holds.
        if (process.env.BENCH_HEAP_SNAPSHOT)
          writeHeapSnapshot(`${process.env.BENCH_HEAP_SNAPSHOT}/stage-${m.id}.heapsnapshot`);
        // The V8 heap's committed pages: RSS beyond them is the process's native memory (HTTP/2 streams, buffers,
        // the allocator's arenas).
        const committed = getHeapStatistics().total_heap_size;
        send({ id: m.id, result: { rss: u.rss, heap: u.heapUsed, external: u.external, committed } });
      } else if (m.op === "ws-start") {
        wss ??= new WebSocketServer({ host: "127.0.0.1", port: 0 });
        await new Promise<void>((resolve) => (wss!.address() ? resolve() : wss!.once("listening", resolve)));
        send({ id: m.id, result: (wss.address() as { port: number }).port });
      } else if (m.op === "ws-send") {
        const payload = Buffer.from(m.b64, "base64");
        for (const client of wss!.clients) client.send(payload, { binary: true });
        send({ id: m.id, result: wss!.clients.size });
      } else if (m.op === "users") {
        send({ id: m.id, result: await seedUsers(db.url, m.n) });
      }
    })();
  });
  process.on("disconnect", () => {
    wss?.close();
    void platform
      .close()
      .then(() => db.drop())
      .finally(() => process.exit(0));
  });
  send({ ready: { url: platform.url } });
}

// ---------------------------------------------------------------- the load generator (this process)

interface Server {
  url: string;
  child: ChildProcess;
  /** REST calls to the server (the gateway). */
  call: RestCall;
  ask<T>(op: ToServer["op"], extra?: Record<string, unknown>): Promise<T>;
}

async function startServer(privatePem: string): Promise<Server> {
  const child = fork(fileURLToPath(import.meta.url), ["--serve"], {
    execArgv: [...process.execArgv, "--expose-gc"],
    env: { ...process.env, BENCH_JWT_PRIVATE_KEY: privatePem },
    stdio: ["inherit", "inherit", "inherit", "ipc"],
  });
  const pending = new Map<number, (v: unknown) => void>();
  let nextId = 1;
  const url = await new Promise<string>((resolve, reject) => {
    child.on("message", (m: FromServer) => {
      if ("ready" in m) resolve(m.ready.url);
      else if ("failed" in m) reject(new Error(m.failed));
      else pending.get(m.id)?.(m.result);
    });
    child.once("exit", (code) => reject(new Error(`the server process exited (${code})`)));
  });
  return {
    url,
    child,
    call: restCall(url),
    ask: <T>(op: ToServer["op"], extra: Record<string, unknown> = {}) =>
      new Promise<T>((resolve) => {
        const id = nextId++;
        pending.set(id, (v) => {
          pending.delete(id);
          resolve(v as T);
        });
        child.send({ id, op, ...extra });
      }),
  };
}

/**
 * What a listener reads of each JoinResponse: its kind (the oneof's field number) and, for a patch, its version,
 * with protobuf-es's wire reader (the message is not built). The load generator reads every listener's messages on one
 * core, where a real listener decodes its own; building each message (about 10 µs) was a third of this process's work
 * while a patch reached 10,000 listeners. The first listener builds its messages (it keeps the stage), and so would
 * anyone who needs more than the version.
 */
function peekJoinResponse(bytes: Uint8Array): { field: number; version: bigint } {
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

/** N listeners of one room on `sessions` HTTP/2 sessions; arrival times of every patch version per listener. */
class Audience {
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
      () => console.log(`  … ${this.joined} of ${this.n} joined, ${this.failures.length} failed`),
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

interface Room {
  uuid: string;
  owner: string;
  djs: string[];
}

async function signUp(server: Pick<Server, "call">): Promise<string> {
  const res = await server.call("POST", "/api/user-service/users/sign-up", undefined, {
    email: `${randomUUID()}@bench.test`,
    password: "bench-password-1",
  });
  return res.accessToken.token as string;
}

/** A room with `djs` seats and as many users with a long song queued each (the stage changes are their seat changes). */
async function makeRoom(server: Pick<Server, "call">, djs: number): Promise<Room> {
  const owner = await signUp(server);
  const created = await server.call("POST", "/api/room-service/rooms/infrastructure", owner, {
    name: `Bench stage ${randomUUID().slice(0, 8)}`,
    numberOfDjs: djs,
  });
  const tokens: string[] = [];
  for (let i = 0; i < djs; i++) {
    const token = await signUp(server);
    await server.call("POST", "/api/playlist-service/crate/special/queue/songs", token, {
      songs: [
        {
          trackName: `Bench ${randomUUID().slice(0, 6)}`,
          artistName: "Bench",
          duration: 3600,
          musicProviders: { spotify: `sp-${randomUUID()}` },
        },
      ],
    });
    tokens.push(token);
  }
  return { uuid: created.room.uuid as string, owner, djs: tokens };
}

/**
 * Joins, then `changes` + 1 stage changes, the first a warm-up: one DJ takes the first seat (and keeps it: their song
 * plays), then a second DJ takes the second seat and leaves it in turn, `changes` times (a take and a leave are each
 * a stage change every listener gets a patch for; a room has at most 10 seats, so takes alone by as many users
 * would cap the sample at 9 changes). Each listener's time to each measured change's patch (ms), takes and leaves
 * pooled. A seat change is one the request's instance makes itself; a like needs a play, which the room's lease
 * holder starts (its driver), so the measure would depend on it.
 */
async function fanOut(
  server: Pick<Server, "call" | "ask">,
  listeners: Listeners,
  n: number,
  changes: number,
  perSession: number,
  memory: boolean,
  joinUrls: string[],
) {
  const room = await makeRoom(server, 2);
  const [player, cycler] = room.djs as [string, string];
  // At least a session per URL, and as many on each: listener i is on session i mod sessions, so each URL gets n / URLs.
  const sessions = Math.ceil(Math.max(1, Math.ceil(n / perSession)) / joinUrls.length) * joinUrls.length;
  const audience = new Audience(joinUrls, n, sessions);
  const tokens = await listeners.tokens(n);
  const mem = () =>
    memory ? server.ask<{ rss: number; heap: number; committed: number }>("mem") : Promise.resolve(null);
  const half = Math.floor(n / 2);
  const before = await mem();
  let joinMs = await audience.join(room.uuid, tokens, 100, 0, half);
  const mid = await mem();
  joinMs += await audience.join(room.uuid, tokens, 100, half, n);
  if (audience.joined < n) throw new Error(`${n - audience.joined} of ${n} joins failed: ${audience.failures[0]}`);
  const after = await mem();
  // The stage's listener count (the lease holder's presence reconciliation): waited for, reported when it lags.
  const counted = await audience
    .until((st) => (st.listeners?.[listeners.kind] ?? 0) >= n, `${n} ${listeners.kind} on the stage`, 30_000)
    .then(
      () => "",
      () =>
        `the stage counted ${String((audience.stage as Json)?.listeners?.[listeners.kind] ?? 0)} of ${n} ${listeners.kind} 30 s after the joins`,
    );

  const samples: number[] = [];
  const actions: number[] = [];
  const spread: number[] = [];
  // Per join URL (instance): each measured change's first and last patch at its listeners (ms from the call).
  const instances = joinUrls.map(() => ({ first: [] as number[], last: [] as number[] }));
  let missing = 0;
  // The patch message of the last seat take (the bare broadcast sends it) and of the last leave (its size reported).
  let payload: Uint8Array | null = null;
  let leavePayload: Uint8Array | null = null;
  const seats = `/api/social-service/rooms/${room.uuid}/seats`;
  for (let change = 0; change <= changes; change++) {
    // 0: the first DJ's take (the warm-up); then the second DJ's take (odd) and leave (even) in turn.
    const take = change % 2 === 1 || change === 0;
    const t0 = performance.now();
    const stage = take
      ? await server.call("POST", seats, change === 0 ? player : cycler, {})
      : await server.call("DELETE", seats, cycler);
    const answered = performance.now() - t0;
    const v = BigInt(stage.version as string);
    await audience.all(v);
    // Each change announces its seat taken or left to every listener after the patch.
    await audience.activitiesReach(n * (change + 1));
    const a = audience.arrivals.get(v)!;
    if (take) payload = audience.firstMessage.get(v)!;
    else leavePayload = audience.firstMessage.get(v)!;
    // The first seat take warms the path up (JIT); the others are measured.
    if (change === 0) continue;
    actions.push(answered);
    const first = Math.min(...a.filter((t) => t > 0));
    instances.forEach((inst, u) => {
      const mine = Array.from(a).filter((t, i) => t > 0 && (i % sessions) % joinUrls.length === u);
      inst.first.push(Math.min(...mine) - t0);
      inst.last.push(Math.max(...mine) - t0);
    });
    for (const t of a) {
      if (t === 0) missing++;
      else {
        samples.push(t - t0);
        spread.push(t - first);
      }
    }
  }
  // Whether the room's driver (lease holder) started the first DJ's song meanwhile (reported, not measured).
  const played = await audience
    .until((st) => Boolean(st.play), "a play", 10_000)
    .then(
      () => "",
      () => `no play started 10 s after the first seat take (the room's driver did not advance; room ${room.uuid})`,
    );
  audience.close();
  return {
    played,
    sessions,
    joinMs,
    samples,
    actions,
    spread,
    instances,
    missing,
    payload: payload!,
    leavePayload,
    counted,
    perListener:
      before && mid && after
        ? {
            rss: (after.rss - mid.rss) / (n - half),
            heap: (after.heap - mid.heap) / (n - half),
            committed: (after.committed - mid.committed) / (n - half),
            rssFromNone: (after.rss - before.rss) / n,
            heapFromNone: (after.heap - before.heap) / n,
          }
        : null,
  };
}

/** The bare WebSocket broadcast of `payload` from the server process to n clients: each client's time (ms). */
async function bareBroadcast(
  server: Server,
  n: number,
  payload: Uint8Array,
  rounds: number,
): Promise<{ samples: number[]; spread: number[] }> {
  const port = await server.ask<number>("ws-start");
  const sockets: WebSocket[] = [];
  const arrivals: number[] = new Array<number>(n).fill(0);
  let got = 0;
  let done: (() => void) | null = null;
  for (let start = 0; start < n; start += 200) {
    await Promise.all(
      Array.from({ length: Math.min(200, n - start) }, (_, k) => {
        const i = start + k;
        const ws = new WebSocket(`ws://127.0.0.1:${port}`);
        sockets.push(ws);
        ws.on("message", (data: Buffer) => {
          // Read as the join streams' messages are (the same work per message on the client side).
          peekJoinResponse(data);
          if (arrivals[i] === 0) {
            arrivals[i] = performance.now();
            if (++got === n) done?.();
          }
        });
        return new Promise<void>((resolve, reject) => {
          ws.once("open", () => resolve());
          ws.once("error", reject);
        });
      }),
    );
  }
  const samples: number[] = [];
  const spread: number[] = [];
  const b64 = Buffer.from(payload).toString("base64");
  for (let r = 0; r <= rounds; r++) {
    arrivals.fill(0);
    got = 0;
    const all = new Promise<void>((resolve) => (done = resolve));
    const t0 = performance.now();
    await server.ask("ws-send", { b64 });
    await all;
    const first = Math.min(...arrivals);
    if (r === 0) continue; // warm-up
    for (const t of arrivals) {
      samples.push(t - t0);
      spread.push(t - first);
    }
  }
  for (const ws of sockets) ws.terminate();
  return { samples, spread };
}

/** A figure's line: p50, p99 and max of `xs` (ms). */
const row = (name: string, xs: number[]) =>
  console.log(
    `${name.padEnd(56)} ${pct(xs, 0.5).toFixed(1).padStart(8)} ${pct(xs, 0.99).toFixed(1).padStart(8)} ${pct(xs, 1).toFixed(1).padStart(8)}`,
  );

/** Who the listeners are: their tokens, and the stage's count they are in. */
interface Listeners {
  kind: "guests" | "users";
  tokens: (n: number) => Promise<string[]>;
}

/**
 * Listeners with tokens signed with the platform's key, as its user service would sign them (the kid it publishes):
 * guests, or (`seed` given) signed-up users, whose accounts `seed` creates.
 */
async function listenersOf(
  call: RestCall,
  privatePem: string,
  seed?: (n: number) => Promise<string[]>,
): Promise<Listeners> {
  const sign = await platformTokenSigner(call, privatePem);
  if (!seed)
    return { kind: "guests", tokens: (n) => Promise.all(Array.from({ length: n }, () => sign({ typ: "guest" }))) };
  return { kind: "users", tokens: async (n) => Promise.all((await seed(n)).map((sub) => sign({ typ: "user", sub }))) };
}

/**
 * 4. one room, two instances: the platform as a cluster runs it (a process per service, `startDistributed`) with two
 * social processes; half the listeners join one social process and half the other (each instance's own port, as a
 * cluster's Service would spread them), and the seat changes go through the gateway to either. Every listener must
 * get every change's patch: nothing missing.
 */
async function twoInstances(privatePem: string, n: number, changes: number, perSession: number, signedUp: boolean) {
  const { createTestDatabase } = await import("@tt/kit/testing");
  const { startDistributed } = await import("@tt/platform/distributed");
  const db = await createTestDatabase(DATABASE_URL);
  const platform = await startDistributed({
    databaseUrl: db.url,
    natsUrl: NATS_URL,
    port: 0,
    replicas: { social: 2 },
    forwardOutput: process.env.BENCH_LOG_LEVEL !== undefined,
    env: {
      ...process.env,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "error",
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      JWT_PRIVATE_KEY: privatePem,
      SOCIAL_DJ_GRACE_MS: String(3_600_000),
      // Every listener's session comes from 127.0.0.1.
      MAX_CONNECTIONS_PER_ADDRESS: "0",
    },
  });
  try {
    const call = restCall(platform.url);
    const socials = platform.processes.filter((p) => p.name === "social").map((p) => p.url);
    if (socials.length !== 2) throw new Error(`expected two social processes, got ${socials.length}`);
    const server = { call, ask: () => Promise.reject(new Error("no memory probe in the distributed part")) };
    const listeners = await listenersOf(call, privatePem, signedUp ? (count) => seedUsers(db.url, count) : undefined);
    return {
      socials,
      listeners,
      ...(await fanOut(server, listeners, n, changes, perSession, false, socials)),
    };
  } finally {
    await platform.close();
    await db.drop();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      listeners: { type: "string", default: "2000" },
      "scale-listeners": { type: "string", default: "10000" },
      changes: { type: "string", default: "20" },
      "streams-per-session": { type: "string", default: "250" },
      "sync-pages": { type: "string", default: "10" },
      "two-instance-listeners": { type: "string", default: "10000" },
      "signed-up": { type: "boolean", default: false },
      serve: { type: "boolean", default: false },
    },
  });
  const listeners = Number(values.listeners);
  const scaleListeners = Number(values["scale-listeners"]);
  const changes = Number(values.changes);
  const perSession = Number(values["streams-per-session"]);
  const syncPages = Number(values["sync-pages"]);
  const twoInstanceListeners = Number(values["two-instance-listeners"]);
  const signedUp = values["signed-up"];
  if (!(changes >= 1)) throw new Error(`--changes must be 1 or more (got ${values.changes})`);

  const privatePem = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  console.log(`load average at start: ${load()} (${os.cpus().length} cores)`);
  const server = await startServer(privatePem);
  try {
    const guests = await listenersOf(server.call, privatePem);

    console.log(
      `server: the all-in-one platform (gateway + social + every service, one process, pid ${server.child.pid}) ` +
        `on a fresh database and NATS ${NATS_URL}; clients: this process, Connect protocol over HTTP/2 (thin reader), ` +
        `${perSession} join streams per session, each listener a guest with its own token`,
    );

    // 1. fan-out
    const f = await fanOut(server, guests, listeners, changes, perSession, false, [server.url]);
    const ws = await bareBroadcast(server, listeners, f.payload, changes);
    const p50 = pct(f.samples, 0.5);
    const p99 = pct(f.samples, 0.99);
    const wsP50 = pct(ws.samples, 0.5);
    const wsP99 = pct(ws.samples, 0.99);
    console.log(
      `\n1. fan-out: ${listeners} listeners on ${f.sessions} HTTP/2 sessions (joined in ${Math.round(f.joinMs)} ms), ` +
        `${changes} seat changes measured (takes and leaves in turn; patch message ${f.payload.length} B for a take, ` +
        `${f.leavePayload?.length ?? 0} B for a leave), load ${load()}`,
    );
    for (const note of [f.counted, f.played]) if (note) console.log(`NOTE: ${note}`);
    console.log(`${"".padEnd(56)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)} ${"max ms".padStart(8)}`);
    row("seat change → patch at each listener (Connect, gateway)", f.samples);
    row(`bare WebSocket broadcast (ws, ${listeners} sockets)`, ws.samples);
    row("the seat change's REST call until its answer (for scale)", f.actions);
    row("spread: first listener's patch → each one's", f.spread);
    row("spread: bare broadcast, first socket → each one", ws.spread);
    console.log(
      `ratio p50 ${(p50 / wsP50).toFixed(2)}×, p99 ${(p99 / wsP99).toFixed(2)}× ` +
        `(fan-out spread alone: p99 ${(pct(f.spread, 0.99) / pct(ws.spread, 0.99)).toFixed(2)}×); missing patches: ${f.missing}; ` +
        `targets p99 ≤ 100 ms: ${p99 <= 100 ? "met" : "NOT met"}, ≤ 1.5× the bare broadcast: ${p99 <= 1.5 * wsP99 ? "met" : "NOT met"}`,
    );

    // 2. scale (--scale-listeners 0 leaves it out)
    if (scaleListeners > 0) {
      const scaleAudience = signedUp
        ? await listenersOf(server.call, privatePem, (n) => server.ask<string[]>("users", { n }))
        : guests;
      const s = await fanOut(server, scaleAudience, scaleListeners, changes, perSession, true, [server.url]);
      const sP99 = pct(s.samples, 0.99);
      const kb = (b: number) => (b / 1024).toFixed(1);
      console.log(
        `\n2. scale: ${scaleListeners} listeners (${scaleAudience.kind}) of one room on one instance, ${s.sessions} HTTP/2 sessions ` +
          `(joined in ${Math.round(s.joinMs)} ms), ${changes} seat changes measured, load ${load()}`,
      );
      for (const note of [s.counted, s.played]) if (note) console.log(`NOTE: ${note}`);
      row("seat change → patch at each listener (Connect, gateway)", s.samples);
      row("the seat change's REST call until its answer (for scale)", s.actions);
      row("spread: first listener's patch → each one's", s.spread);
      console.log(
        `memory per listener (server process, after GC; the second half's growth per listener): RSS ${kb(s.perListener!.rss)} KB, ` +
          `heap ${kb(s.perListener!.heap)} KB (V8 heap committed ${kb(s.perListener!.committed)} KB; from no listeners: RSS ${kb(s.perListener!.rssFromNone)} KB, heap ${kb(s.perListener!.heapFromNone)} KB); ` +
          `missing patches: ${s.missing}; targets p99 ≤ 500 ms: ${sP99 <= 500 ? "met" : "NOT met"}, ` +
          `≤ 30 KB: ${Math.max(s.perListener!.rss, s.perListener!.heap) <= 30 * 1024 ? "met" : "NOT met"}, ` +
          `the joins ≤ 10 s: ${s.joinMs <= 10_000 ? "met" : "NOT met"}`,
      );
    }
  } finally {
    server.child.disconnect();
    await new Promise((resolve) => server.child.once("exit", resolve));
  }

  // 4. two instances (--two-instance-listeners 0 leaves it out): a platform of its own once the first has stopped.
  if (twoInstanceListeners > 0) {
    const t = await twoInstances(privatePem, twoInstanceListeners, changes, perSession, signedUp);
    const tP99 = pct(t.samples, 0.99);
    console.log(
      `\n4. two instances: ${twoInstanceListeners} listeners (${t.listeners.kind}) of one room, half on each of two social processes ` +
        `(${t.socials.join(", ")}; a process per service), ${t.sessions} HTTP/2 sessions (joined in ${Math.round(t.joinMs)} ms), ` +
        `${changes} seat changes measured through the gateway, load ${load()}`,
    );
    for (const note of [t.counted, t.played]) if (note) console.log(`NOTE: ${note}`);
    row("seat change → patch at each listener (either instance)", t.samples);
    row("the seat change's REST call until its answer (for scale)", t.actions);
    row("spread: first listener's patch → each one's", t.spread);
    t.instances.forEach((inst, u) => {
      row(`instance ${u + 1}: the call → its first listener's patch`, inst.first);
      row(`instance ${u + 1}: the call → its last listener's patch`, inst.last);
    });
    console.log(
      `missing patches: ${t.missing}; targets p99 ≤ 150 ms: ${tP99 <= 150 ? "met" : "NOT met"}, nothing missing: ` +
        `${t.missing === 0 ? "met" : "NOT met"}`,
    );
  }

  // 3. sync: its own platform (with the web apps) once the first one has stopped, and Chromium.
  if (syncPages > 0) {
    console.log(`\n3. sync: ${syncPages} headless Chromium pages in one room`);
    await measureSync({ pages: syncPages, log: (line) => console.log(line) });
  }
  console.log(`\nload average at the end: ${load()}`);
}

if (process.argv.includes("--serve")) {
  serve().catch((err: unknown) => {
    process.send?.({ failed: String((err as Error)?.stack ?? err) });
    process.exit(1);
  });
} else {
  await main();
  process.exit(0);
}
