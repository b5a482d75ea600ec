// One port for everything: gRPC needs HTTP/2 (h2c, prior knowledge), browsers and simple clients speak
// Connect or gRPC-Web over HTTP/1.1. Health and readiness sit beside the RPCs; metrics have a port of their own
// (never the public one, which answers 404 for /metrics). Slow and greedy clients are bounded here, for every
// service and the gateway alike: a deadline for the headers, an idle timeout for request bodies and for
// connections without a running request, and caps on open connections (in all and per remote address).
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import http2 from "node:http2";
import net, { type AddressInfo, type Socket } from "node:net";
import type { Logger } from "pino";
import { register, type Registry } from "prom-client";

/** A Node request handler for HTTP/1.1 and HTTP/2 requests; `connectNodeAdapter` returns one. */
export type NodeRequestHandler = (
  req: IncomingMessage | http2.Http2ServerRequest,
  res: ServerResponse | http2.Http2ServerResponse,
) => void;

/** What one client may hold of a server, and for how long. */
export interface ServerLimits {
  /**
   * A new connection's first request line and headers (the HTTP/2 preface included), and every later request's
   * headers, must arrive within this time; a hard deadline, not reset by bytes trickling in.
   */
  headersTimeoutMs: number;
  /** Longest pause between two chunks of a request body; a request whose body has ended has no time limit. */
  bodyTimeoutMs: number;
  /** Longest an HTTP/1.1 keep-alive connection, or an HTTP/2 session, stays open without a running request. */
  idleTimeoutMs: number;
  /** Open connections of this server; 0 means no cap. */
  maxConnections: number;
  /** Open connections from one remote address (IPv6: from one /64); 0 means no cap. */
  maxConnectionsPerAddress: number;
}

export const DEFAULT_SERVER_LIMITS: Readonly<ServerLimits> = Object.freeze({
  headersTimeoutMs: 15_000,
  bodyTimeoutMs: 30_000,
  // Longer than the 60 s idle timeout of common proxies and load balancers, so they close first (no race on a
  // connection the proxy is about to reuse).
  idleTimeoutMs: 65_000,
  maxConnections: 10_000,
  maxConnectionsPerAddress: 256,
});

export interface ServerOptions {
  handler: NodeRequestHandler;
  /** 0 picks a free port. */
  port: number;
  host?: string;
  /** Readiness: database and bus reachable. */
  ready: () => Promise<boolean>;
  logger: Logger;
  /** How long close() lets running calls finish before cutting connections. Default 10 s. */
  shutdownTimeoutMs?: number;
  registry?: Registry;
  /**
   * Where GET /metrics is served (port 0 picks a free one); without it, nowhere. `orFreePort`: when the port is
   * taken, serve on a free one (with a warning) instead of failing the start.
   */
  metrics?: { port: number; host?: string; orFreePort?: boolean };
  /** Limits against slow and greedy clients; each missing one is its DEFAULT_SERVER_LIMITS value. */
  limits?: Partial<ServerLimits>;
}

export interface RunningServer {
  /** http://host:port, with a loopback host when listening on every interface. */
  url: string;
  port: number;
  /** http://host:port of the metrics server, when one was asked for. */
  metricsUrl?: string;
  /** Stops accepting, lets running calls finish (up to the timeout), then closes every connection. */
  close(): Promise<void>;
}

type AnyRequest = IncomingMessage | http2.Http2ServerRequest;
type AnyResponse = ServerResponse | http2.Http2ServerResponse;

function send(res: AnyResponse, status: number, body: string, contentType = "text/plain; charset=utf-8") {
  // The union of the HTTP/1 and HTTP/2 response types has no callable writeHead; both share this shape.
  const r = res as ServerResponse;
  r.writeHead(status, { "content-type": contentType, "cache-control": "no-store" });
  r.end(body);
}

export async function createServer(opts: ServerOptions): Promise<RunningServer> {
  const limits: ServerLimits = { ...DEFAULT_SERVER_LIMITS, ...opts.limits };
  const requests = new RequestTracker(limits, opts);
  const h1 = createHttp1(limits, requests);
  const h2 = createHttp2(limits, requests);
  const server = createGate(limits, opts.logger, (socket, isHttp2) => {
    if (isHttp2) h2.server.emit("connection", socket);
    else {
      h1.emit("connection", socket);
      socket.resume();
    }
  });

  try {
    await listen(server, opts.port, opts.host ?? "0.0.0.0");
  } catch (err) {
    h1.close();
    throw err;
  }
  const { port, url } = where(server);
  let metrics: { server: http.Server; url: string } | undefined;
  if (opts.metrics) {
    try {
      metrics = await startMetrics(opts.metrics, opts, limits);
    } catch (err) {
      h1.close();
      await new Promise((resolve) => server.close(resolve));
      throw err;
    }
  }
  opts.logger.info({ port, metricsUrl: metrics?.url }, "listening");

  const close = async () => {
    // Stops h1's headers-deadline checks too (it never listened, so this only clears them).
    h1.close();
    requests.draining = true;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    const metricsClosed = new Promise<void>((resolve) => (metrics ? metrics.server.close(() => resolve()) : resolve()));
    metrics?.server.closeAllConnections();
    // HTTP/2: GOAWAY, running streams may finish. HTTP/1.1: idle keep-alive sockets go now.
    for (const session of h2.sessions) session.close();
    requests.closeIdleHttp1();
    await requests.drain(opts.shutdownTimeoutMs ?? 10_000);
    for (const session of h2.sessions) session.destroy();
    for (const socket of server.sockets) socket.destroy();
    await Promise.all([closed, metricsClosed]);
    opts.logger.info("server closed");
  };
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    metricsUrl: metrics?.url,
    close() {
      closing ??= close();
      return closing;
    },
  };
}

/**
 * Every request of both protocols: answers health, readiness and draining itself, hands the rest to the handler,
 * arms the body idle timeout, and counts what is running so that close() can let it finish.
 */
class RequestTracker {
  draining = false;
  private inflight = 0;
  private drained: (() => void) | undefined;
  /** HTTP/1.1 keep-alive sockets with a request running; idle ones can be closed at once on shutdown. */
  readonly busy = new Map<Socket, number>();
  private readonly http1Sockets = new Set<Socket>();
  /** The newest request on each HTTP/1.1 socket: the one whose body a socket timeout is about. */
  readonly latest = new WeakMap<Socket, AnyRequest>();

  constructor(
    private readonly limits: ServerLimits,
    private readonly opts: Pick<ServerOptions, "handler" | "ready" | "logger">,
  ) {}

  readonly onRequest = (req: AnyRequest, res: AnyResponse): void => {
    this.inflight++;
    const socket = req.httpVersionMajor === 1 ? (req.socket as Socket) : undefined;
    if (socket) this.startHttp1(socket, req);
    else this.startHttp2((req as http2.Http2ServerRequest).stream, req);
    res.once("close", () => {
      this.inflight--;
      if (socket) {
        const left = (this.busy.get(socket) ?? 1) - 1;
        if (left > 0) this.busy.set(socket, left);
        else {
          this.busy.delete(socket);
          if (this.draining) socket.destroy();
        }
      }
      if (this.draining && this.inflight === 0) this.drained?.();
    });
    this.handle(req, res).catch((err: unknown) => {
      this.opts.logger.error({ err }, "request failed outside the RPC handler");
      if (!res.headersSent) send(res, 500, "internal error\n");
    });
  };

  private startHttp1(socket: Socket, req: AnyRequest) {
    this.busy.set(socket, (this.busy.get(socket) ?? 0) + 1);
    if (!this.http1Sockets.has(socket)) {
      this.http1Sockets.add(socket);
      socket.once("close", () => this.http1Sockets.delete(socket));
    }
    // Body idle timeout: any byte in either direction restarts it; h1's "timeout" listener decides what a timeout
    // means once the body has ended (nothing).
    this.latest.set(socket, req);
    socket.setTimeout(this.limits.bodyTimeoutMs);
  }

  private startHttp2(stream: http2.ServerHttp2Stream, req: AnyRequest) {
    if (stream.endAfterHeaders) return;
    stream.setTimeout(this.limits.bodyTimeoutMs, () => {
      if (req.complete) stream.setTimeout(0);
      else stream.close(http2.constants.NGHTTP2_CANCEL);
    });
    // Once the body has been read the stream has no time limit: a server stream open for hours keeps no timer, and
    // its writes do not restart one.
    req.once("end", () => stream.setTimeout(0));
  }

  private async handle(req: AnyRequest, res: AnyResponse) {
    // A keep-alive HTTP/1.1 client may still send while we drain; 503 makes it retry on another instance.
    if (this.draining) {
      if (req.httpVersionMajor === 1) res.setHeader("connection", "close");
      return send(res, 503, "shutting down\n");
    }
    const path = (req.url ?? "/").split("?")[0];
    if (req.method === "GET" && path === "/healthz") return send(res, 200, "ok\n");
    if (req.method === "GET" && path === "/readyz") {
      const ok = !this.draining && (await this.opts.ready().catch(() => false));
      return send(res, ok ? 200 : 503, ok ? "ready\n" : "not ready\n");
    }
    // Metrics live on their own port (opts.metrics), which the Ingress never routes to; never here.
    if (path === "/metrics") return send(res, 404, "not found\n");
    this.opts.handler(req, res);
  }

  closeIdleHttp1() {
    for (const socket of this.http1Sockets) if (!this.busy.has(socket)) socket.destroy();
  }

  /** Resolves when no request is running, or after `timeoutMs` (logged). */
  async drain(timeoutMs: number) {
    if (this.inflight === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      new Promise<false>((resolve) => (this.drained = () => resolve(false))),
      new Promise<true>((resolve) => (timer = setTimeout(() => resolve(true), timeoutMs))),
    ]);
    clearTimeout(timer);
    if (timedOut) this.opts.logger.warn({ inflight: this.inflight }, "shutdown timeout: cutting running calls");
  }
}

/** The HTTP/1.1 side: it never listens itself, the gate hands it its connections. */
function createHttp1(limits: ServerLimits, requests: RequestTracker): http.Server {
  const h1 = http.createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      // Node's requestTimeout bounds a whole request, which would cut long uploads that keep sending; the body
      // timeout above is an idle timeout instead.
      requestTimeout: 0,
      keepAliveTimeout: limits.idleTimeoutMs,
      // Node checks the headers deadline of every connection this often.
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(limits.headersTimeoutMs / 4))),
    },
    requests.onRequest,
  );
  // Node tracks connections for headersTimeout only once the server emits "listening", and h1 never listens
  // itself (it is handed the sockets below): without this, incomplete headers were held forever.
  h1.emit("listening");
  // A socket timeout is the body idle timeout or the keep-alive idle timeout: either way the connection goes,
  // unless the request's body has ended and its answer is still being written (long server streams).
  h1.on("timeout", (socket: Socket) => {
    const req = requests.latest.get(socket);
    if (requests.busy.has(socket) && req?.complete) socket.setTimeout(0);
    else socket.destroy();
  });
  return h1;
}

/** The HTTP/2 side (h2c, prior knowledge), with its open sessions, each closed after idleTimeoutMs without a stream. */
function createHttp2(
  limits: ServerLimits,
  requests: RequestTracker,
): { server: http2.Http2Server; sessions: Set<http2.ServerHttp2Session> } {
  const sessions = new Set<http2.ServerHttp2Session>();
  const h2 = http2.createServer(requests.onRequest);
  // Without a listener, Node's HTTP/2 compatibility layer answers `expect: 100-continue` itself, even on a
  // stream it has already reset (a content-length the body does not match): ERR_HTTP2_INVALID_STREAM was thrown
  // outside any handler and ended the process (issue 9 fuzz). The interim answer goes only to a live stream.
  h2.on("checkContinue", (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => {
    if (!res.stream.destroyed && !res.stream.closed) res.writeContinue();
    requests.onRequest(req, res);
  });
  h2.on("session", (session: http2.ServerHttp2Session) => {
    sessions.add(session);
    closeWhenIdle(session, limits.idleTimeoutMs);
    session.once("close", () => sessions.delete(session));
  });
  return { server: h2, sessions };
}

/**
 * A session without an open stream for `idleTimeoutMs` is closed, pings or not. In two steps (RFC 9113 section
 * 6.8), so a request the client sent just before it heard of the shutdown is served, not refused: a GOAWAY that
 * names the highest stream id, then, once a ping round trip shows the client has read it, the final one and the
 * socket.
 */
function closeWhenIdle(session: http2.ServerHttp2Session, idleTimeoutMs: number) {
  let open = 0;
  let idle: NodeJS.Timeout | undefined;
  const shutDownIdle = () => {
    if (session.closed || session.destroyed) return;
    session.goaway(http2.constants.NGHTTP2_NO_ERROR, 2 ** 31 - 1);
    const finish = () => {
      clearTimeout(fallback);
      if (!session.closed && !session.destroyed) session.close();
    };
    // A client that answers no ping gets at most this long.
    const fallback = setTimeout(finish, Math.min(idleTimeoutMs, 2000));
    fallback.unref();
    if (!session.ping(finish)) finish();
  };
  const armIdle = () => {
    idle = setTimeout(shutDownIdle, idleTimeoutMs);
    idle.unref();
  };
  armIdle();
  session.on("stream", (stream: http2.ServerHttp2Stream) => {
    open++;
    clearTimeout(idle);
    stream.once("close", () => {
      if (--open === 0 && !session.closed && !session.destroyed) armIdle();
    });
  });
  session.once("close", () => clearTimeout(idle));
}

/**
 * The listening socket: caps open connections (in all and per address), then tells HTTP/2 from HTTP/1.1 by the
 * connection preface and hands each connection on. Node's `allowHTTP1` works for TLS servers only (ALPN); without
 * TLS the preface tells the two apart, so one plain port serves h2c gRPC and HTTP/1.1 alike.
 */
function createGate(
  limits: ServerLimits,
  logger: Logger,
  route: (socket: Socket, isHttp2: boolean) => void,
): net.Server & { sockets: Set<Socket> } {
  const sockets = new Set<Socket>();
  const perAddress = new Map<string, number>();
  const refusals = refusalLog(logger);
  const server = net.createServer({ noDelay: true }, (socket) => {
    const address = addressKey(socket.remoteAddress);
    if (address === undefined) return void socket.destroy();
    const open = perAddress.get(address) ?? 0;
    if (limits.maxConnectionsPerAddress > 0 && open >= limits.maxConnectionsPerAddress) {
      refusals(address, "per_address");
      return void socket.resetAndDestroy();
    }
    perAddress.set(address, open + 1);
    sockets.add(socket);
    socket.once("close", () => {
      sockets.delete(socket);
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left > 0) perAddress.set(address, left);
      else perAddress.delete(address);
    });
    socket.once("error", () => socket.destroy());
    routeByPreface(socket, limits.headersTimeoutMs, (isHttp2, head) => {
      // The bytes read to decide go back into the socket's buffer: the HTTP/1 parser reads them from there, and an
      // HTTP/2 session takes what is already buffered before it reads the native handle (so no resume for it:
      // flowing mode would hand those bytes to nobody).
      socket.unshift(head);
      route(socket, isHttp2);
    });
  });
  // Node closes connections over maxConnections as they arrive ("drop").
  if (limits.maxConnections > 0) server.maxConnections = limits.maxConnections;
  server.on("drop", (data?: { remoteAddress?: string }) => refusals(addressKey(data?.remoteAddress) ?? "?", "global"));
  return Object.assign(server, { sockets });
}

/** The metrics server on its own port; `orFreePort` falls back to a free one (with a warning) when it is taken. */
async function startMetrics(
  metrics: NonNullable<ServerOptions["metrics"]>,
  opts: Pick<ServerOptions, "host" | "registry" | "logger">,
  limits: ServerLimits,
): Promise<{ server: http.Server; url: string }> {
  const server = createMetricsServer(opts.registry ?? register, limits, opts.logger);
  const host = metrics.host ?? opts.host ?? "0.0.0.0";
  try {
    await listen(server, metrics.port, host);
  } catch (err) {
    if (!metrics.orFreePort || (err as NodeJS.ErrnoException).code !== "EADDRINUSE") throw err;
    await listen(server, 0, host);
    opts.logger.warn(
      { wanted: metrics.port, port: where(server).port },
      "the metrics port is taken (another process on this machine?): /metrics is served on a free port; set METRICS_PORT to choose one",
    );
  }
  return { server, url: where(server).url };
}

function listen(server: net.Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

/** The port and a URL to reach it, with a loopback host when listening on every interface. */
function where(server: net.Server): { port: number; url: string } {
  const { port, address } = server.address() as AddressInfo;
  const host =
    address === "0.0.0.0" || address === "::" ? "127.0.0.1" : address.includes(":") ? `[${address}]` : address;
  return { port, url: `http://${host}:${port}` };
}

/** GET /metrics in the Prometheus text format, and nothing else; it listens itself, so Node's timeouts apply. */
function createMetricsServer(registry: Registry, limits: ServerLimits, logger: Logger): http.Server {
  const server = http.createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.headersTimeoutMs + limits.bodyTimeoutMs,
      keepAliveTimeout: limits.idleTimeoutMs,
    },
    (req, res) => {
      const path = (req.url ?? "/").split("?")[0];
      if (path !== "/metrics") return send(res, 404, "not found\n");
      if (req.method !== "GET" && req.method !== "HEAD") return send(res, 405, "method not allowed\n");
      registry.metrics().then(
        (text) => send(res, 200, req.method === "HEAD" ? "" : text, registry.contentType),
        (err: unknown) => {
          logger.error({ err }, "collecting metrics failed");
          send(res, 500, "collecting metrics failed\n");
        },
      );
    },
  );
  if (limits.maxConnections > 0) server.maxConnections = limits.maxConnections;
  return server;
}

/**
 * The key connections are counted under: an IPv4 address (also when it arrives IPv4-mapped), or the /64 of an
 * IPv6 address, since one host or customer is given a whole /64 and could otherwise open a connection from
 * each of its addresses.
 */
export function addressKey(address: string | undefined): string | undefined {
  if (!address) return undefined;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  if (!address.includes(":")) return address;
  const groups = (part: string) =>
    part === "" ? [] : part.split(":").flatMap((g) => (g.includes(".") ? ["0", "0"] : [g]));
  const [left = "", right] = address.split("%")[0]!.split("::");
  const head = groups(left);
  const tail = right === undefined ? [] : groups(right);
  const full =
    right === undefined ? head : [...head, ...Array<string>(8 - head.length - tail.length).fill("0"), ...tail];
  return `${full
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(":")}::/64`;
}

/** Logs refused connections, at most once a minute (an attack would otherwise flood the log). */
function refusalLog(logger: Logger): (address: string, cap: "per_address" | "global") => void {
  let lastAt = -Infinity;
  let since = 0;
  return (address, cap) => {
    since++;
    const now = performance.now();
    if (now - lastAt < 60_000) return;
    logger.warn(
      { address, cap, refusedSinceLastLog: since },
      cap === "global"
        ? "connection refused: MAX_CONNECTIONS open"
        : "connection refused: MAX_CONNECTIONS_PER_ADDRESS open from this address",
    );
    lastAt = now;
    since = 0;
  };
}

const PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");

/**
 * Reads just enough of a new connection to see whether it opens with the HTTP/2 preface, then hands it on.
 * Until then the connection has `timeoutMs` in all (a deadline, not an idle timeout: trickled bytes do not
 * extend it); afterwards the protocol's own limits apply.
 */
function routeByPreface(socket: Socket, timeoutMs: number, route: (isHttp2: boolean, head: Buffer) => void): void {
  let seen = Buffer.alloc(0);
  const deadline = setTimeout(() => socket.destroy(), timeoutMs);
  socket.once("close", () => clearTimeout(deadline));
  const onData = (chunk: Buffer) => {
    seen = Buffer.concat([seen, chunk]);
    const n = Math.min(seen.length, PREFACE.length);
    const isHttp2 = seen.subarray(0, n).equals(PREFACE.subarray(0, n));
    if (isHttp2 && n < PREFACE.length) return;
    socket.off("data", onData);
    socket.pause();
    clearTimeout(deadline);
    route(isHttp2, seen);
  };
  socket.on("data", onData);
}
