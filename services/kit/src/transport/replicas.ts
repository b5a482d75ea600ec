// A service reached at several base URLs, its replicas (issue 28 finding 5). A cluster gives each caller one URL,
// the service's (its Service spreads the calls over the ready pods), and a single URL behaves exactly as before. The
// local distributed runner has no Service in front of a service's processes: it gives every replica's URL in the one
// <NAME>_SERVICE_URL, comma-separated, and the caller spreads its calls itself:
// - each call (or new stream) goes to the next replica in turn;
// - a replica whose connection fails (refused, or lost before it was made) is set aside for a short backoff that
//   doubles while it keeps failing (DEFAULT_REPLICA_DOWN_MS up to DEFAULT_REPLICA_MAX_DOWN_MS), and the call goes to
//   the next replica: nothing was sent, so trying elsewhere is safe. A call that did reach a replica is never sent
//   again (it may have had an effect); the next call finds out whether the replica is still there;
// - a replica set aside is tried again once its backoff is over, and taken back when a connection to it opens.
// When every replica is set aside a call still tries them all, the soonest due first: one may be back.
import type { Http2SessionManager } from "@connectrpc/connect-node";
import { Code, ConnectError, type Transport } from "@connectrpc/connect";
import { backendSession, createBackendTransport, type BackendProtocol } from "./http2-transport.ts";

/** How long a replica whose connection failed is set aside at first; doubled at each failure in a row. */
export const DEFAULT_REPLICA_DOWN_MS = 250;
/** The longest a replica is set aside before it is tried again. */
export const DEFAULT_REPLICA_MAX_DOWN_MS = 5_000;

/**
 * The base URLs a <NAME>_SERVICE_URL value lists: one URL, or several separated by commas (blanks around them are
 * ignored). Throws an Error saying what is wrong when the list is empty or an entry is not an http(s) URL.
 */
export function parseServiceUrls(value: string): string[] {
  const urls = value
    .split(",")
    .map((u) => u.trim())
    .filter((u) => u !== "");
  if (urls.length === 0) throw new Error("must be an http:// or https:// URL");
  for (const u of urls) {
    let url: URL;
    try {
      url = new URL(u);
    } catch {
      throw new Error(urls.length === 1 ? "must be an http:// or https:// URL" : `"${u}" is not an http(s) URL`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new Error(
        urls.length === 1 ? "must be an http:// or https:// URL" : `"${u}" is not an http:// or https:// URL`,
      );
    }
  }
  return urls;
}

export interface ReplicaSetOptions {
  /** Default DEFAULT_REPLICA_DOWN_MS. */
  downMs?: number;
  /** Default DEFAULT_REPLICA_MAX_DOWN_MS. */
  maxDownMs?: number;
  /** Clock (ms); default performance.now. */
  now?: () => number;
  /** Told when a replica is set aside or taken back. */
  onChange?: (change: { url: string; up: boolean; downForMs?: number; error?: unknown }) => void;
}

/** Which replica of a service to try for each call, and which are set aside; shared by every way of calling it. */
export class ReplicaSet {
  readonly urls: readonly string[];
  private next = 0;
  private readonly failures: number[];
  private readonly downUntil: number[];
  private readonly downMs: number;
  private readonly maxDownMs: number;
  private readonly now: () => number;
  private readonly onChange: ReplicaSetOptions["onChange"];

  constructor(urls: readonly string[], opts: ReplicaSetOptions = {}) {
    if (urls.length === 0) throw new Error("a replica set needs at least one URL");
    this.urls = [...urls];
    this.failures = urls.map(() => 0);
    this.downUntil = urls.map(() => 0);
    this.downMs = opts.downMs ?? DEFAULT_REPLICA_DOWN_MS;
    this.maxDownMs = opts.maxDownMs ?? DEFAULT_REPLICA_MAX_DOWN_MS;
    this.now = opts.now ?? (() => performance.now());
    this.onChange = opts.onChange;
  }

  /**
   * The replicas to try for one call, in order: starting from the next in turn, those not set aside, then those set
   * aside, the soonest due first. A caller tries the next only when the previous could not be reached.
   */
  order(): number[] {
    const n = this.urls.length;
    const start = this.next;
    this.next = (this.next + 1) % n;
    const now = this.now();
    const up: number[] = [];
    const down: number[] = [];
    for (let k = 0; k < n; k++) {
      const i = (start + k) % n;
      (this.downUntil[i]! <= now ? up : down).push(i);
    }
    down.sort((a, b) => this.downUntil[a]! - this.downUntil[b]!);
    return up.concat(down);
  }

  /** Whether replica `i` is set aside right now. */
  isDown(i: number): boolean {
    return this.downUntil[i]! > this.now();
  }

  /** A connection to replica `i` failed: it is set aside, for twice as long as last time when it failed before. */
  failed(i: number, error?: unknown): void {
    const downForMs = Math.min(this.maxDownMs, this.downMs * 2 ** Math.min(this.failures[i]!, 30));
    this.failures[i]! += 1;
    this.downUntil[i] = this.now() + downForMs;
    this.onChange?.({ url: this.urls[i]!, up: false, downForMs, error });
  }

  /** A connection to replica `i` opened: it is taken back. */
  reached(i: number): void {
    if (this.failures[i] === 0) return;
    this.failures[i] = 0;
    this.downUntil[i] = 0;
    this.onChange?.({ url: this.urls[i]!, up: true });
  }
}

/** One replica as a Connect transport over its own HTTP/2 session. */
export interface ReplicaEndpoint {
  session: Http2SessionManager;
  transport: Transport;
}

/**
 * Whether the session has, or can open, a connection to its replica. Opening one sends nothing, so a call that
 * finds it refused can go to another replica.
 */
async function reachable(session: Http2SessionManager): Promise<boolean> {
  const state = session.state();
  if (state === "open" || state === "idle" || state === "verifying") return true;
  return (await session.connect()) !== "error";
}

/**
 * A transport over the replicas of `set` (one endpoint per URL, in the same order): each unary call and each
 * stream goes to the next replica in turn that can be reached (see the top of this file).
 */
export function createReplicatedTransport(set: ReplicaSet, endpoints: readonly ReplicaEndpoint[]): Transport {
  if (endpoints.length !== set.urls.length) throw new Error("one endpoint per replica URL");
  const onReachable = async <T>(run: (transport: Transport) => Promise<T>, signal?: AbortSignal): Promise<T> => {
    let refused: unknown;
    for (const i of set.order()) {
      if (signal?.aborted) throw ConnectError.from(signal.reason, Code.Canceled);
      const endpoint = endpoints[i]!;
      if (!(await reachable(endpoint.session))) {
        refused = endpoint.session.error();
        set.failed(i, refused);
        continue;
      }
      set.reached(i);
      return run(endpoint.transport);
    }
    // As one replica's transport reports a refused connection.
    throw ConnectError.from(refused ?? new Error("no replica could be reached"), Code.Unavailable);
  };
  return {
    unary: (method, signal, timeoutMs, header, input, contextValues) =>
      onReachable((t) => t.unary(method, signal, timeoutMs, header, input, contextValues), signal),
    stream: (method, signal, timeoutMs, header, input, contextValues) =>
      onReachable((t) => t.stream(method, signal, timeoutMs, header, input, contextValues), signal),
  };
}

export interface ServiceTransportOptions {
  /** Default "connect". */
  protocol?: BackendProtocol;
  /** Idle time after which an HTTP/2 session to a replica is closed (see backendSession). */
  idleConnectionTimeoutMs?: number;
  readMaxBytes?: number;
  /** Told when a replica is set aside or taken back (several URLs only). */
  onReplicaChange?: ReplicaSetOptions["onChange"];
}

/** How a process reaches one service: a transport, the replicas it spreads calls over (several URLs), a close. */
export interface ServiceTransport {
  transport: Transport;
  /** Present when there are several URLs; shared with whatever else calls the service (the gateway's passthrough). */
  replicas?: ReplicaSet;
  /** Closes the HTTP/2 sessions. */
  close(): void;
}

/**
 * The transport to a service at `urls` (parseServiceUrls): with one URL, the service's HTTP/2 session and transport
 * exactly as before (a cluster's Service URL); with several, one of each per replica behind a replicated transport.
 */
export function createServiceTransport(urls: readonly string[], opts: ServiceTransportOptions = {}): ServiceTransport {
  const endpoints = urls.map((baseUrl) => {
    const session = backendSession(baseUrl, { idleConnectionTimeoutMs: opts.idleConnectionTimeoutMs });
    const transport = createBackendTransport({
      baseUrl,
      session,
      ...(opts.protocol ? { protocol: opts.protocol } : {}),
      ...(opts.readMaxBytes ? { readMaxBytes: opts.readMaxBytes } : {}),
    });
    return { session, transport };
  });
  const close = () => {
    for (const e of endpoints) e.session.abort();
  };
  if (endpoints.length === 1) return { transport: endpoints[0]!.transport, close };
  const replicas = new ReplicaSet(urls, { onChange: opts.onReplicaChange });
  return { transport: createReplicatedTransport(replicas, endpoints), replicas, close };
}
