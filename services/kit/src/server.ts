// One port for everything: gRPC needs HTTP/2 (h2c, prior knowledge), browsers and simple clients speak
// Connect or gRPC-Web over HTTP/1.1. Health, readiness and metrics sit beside the RPCs.
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
}

export interface RunningServer {
  /** http://host:port, with a loopback host when listening on every interface. */
  url: string;
  port: number;
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
  const registry = opts.registry ?? register;
  const shutdownTimeoutMs = opts.shutdownTimeoutMs ?? 10_000;
  let draining = false;
  let inflight = 0;
  let drained: (() => void) | undefined;
  const sockets = new Set<Socket>();
  const sessions = new Set<http2.ServerHttp2Session>();
  // HTTP/1.1 keep-alive sockets with a request running; idle ones can be closed at once on shutdown.
  const busy = new Map<Socket, number>();
  const http1Sockets = new Set<Socket>();

  const handle = async (req: AnyRequest, res: AnyResponse) => {
    // A keep-alive HTTP/1.1 client may still send while we drain; 503 makes it retry on another instance.
    if (draining) {
      if (req.httpVersionMajor === 1) res.setHeader("connection", "close");
      return send(res, 503, "shutting down\n");
    }
    const path = (req.url ?? "/").split("?")[0];
    if (req.method === "GET" && path === "/healthz") return send(res, 200, "ok\n");
    if (req.method === "GET" && path === "/readyz") {
      const ok = !draining && (await opts.ready().catch(() => false));
      return send(res, ok ? 200 : 503, ok ? "ready\n" : "not ready\n");
    }
    if (req.method === "GET" && path === "/metrics") {
      return send(res, 200, await registry.metrics(), registry.contentType);
    }
    opts.handler(req, res);
  };

  const onRequest = (req: AnyRequest, res: AnyResponse) => {
    inflight++;
    const socket = req.httpVersionMajor === 1 ? (req.socket as Socket) : undefined;
    if (socket) {
      busy.set(socket, (busy.get(socket) ?? 0) + 1);
      if (!http1Sockets.has(socket)) {
        http1Sockets.add(socket);
        socket.once("close", () => http1Sockets.delete(socket));
      }
    }
    res.once("close", () => {
      inflight--;
      if (socket) {
        const left = (busy.get(socket) ?? 1) - 1;
        if (left > 0) busy.set(socket, left);
        else {
          busy.delete(socket);
          if (draining) socket.destroy();
        }
      }
      if (draining && inflight === 0) drained?.();
    });
    handle(req, res).catch((err: unknown) => {
      opts.logger.error({ err }, "request failed outside the RPC handler");
      if (!res.headersSent) send(res, 500, "internal error\n");
    });
  };
  const h1 = http.createServer(onRequest);
  const h2 = http2.createServer(onRequest);
  h2.on("session", (session: http2.ServerHttp2Session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
  });
  // Node's `allowHTTP1` works for TLS servers only (ALPN); without TLS the HTTP/2 connection preface tells
  // the two apart, so one plain port serves h2c gRPC and HTTP/1.1 alike.
  const server = net.createServer({ noDelay: true }, (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    socket.once("error", () => socket.destroy());
    routeByPreface(socket, (isHttp2, head) => {
      // The bytes read to decide go back into the socket's buffer: the HTTP/1 parser reads them from
      // there, and an HTTP/2 session takes what is already buffered before it reads the native handle
      // (so no resume for it: flowing mode would hand those bytes to nobody).
      socket.unshift(head);
      if (isHttp2) h2.emit("connection", socket);
      else {
        h1.emit("connection", socket);
        socket.resume();
      }
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host ?? "0.0.0.0", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port, address } = server.address() as AddressInfo;
  const host =
    address === "0.0.0.0" || address === "::" ? "127.0.0.1" : address.includes(":") ? `[${address}]` : address;
  opts.logger.info({ port }, "listening");

  let closing: Promise<void> | undefined;
  const close = async () => {
    h1.closeIdleConnections();
    draining = true;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // HTTP/2: GOAWAY, running streams may finish. HTTP/1.1: idle keep-alive sockets go now.
    for (const session of sessions) session.close();
    for (const socket of http1Sockets) if (!busy.has(socket)) socket.destroy();
    if (inflight > 0) {
      let timer: NodeJS.Timeout | undefined;
      const timedOut = await Promise.race([
        new Promise<false>((resolve) => (drained = () => resolve(false))),
        new Promise<true>((resolve) => (timer = setTimeout(() => resolve(true), shutdownTimeoutMs))),
      ]);
      clearTimeout(timer);
      if (timedOut) opts.logger.warn({ inflight }, "shutdown timeout: cutting running calls");
    }
    for (const session of sessions) session.destroy();
    for (const socket of sockets) socket.destroy();
    await closed;
    opts.logger.info("server closed");
  };

  return {
    url: `http://${host}:${port}`,
    port,
    close() {
      closing ??= close();
      return closing;
    },
  };
}

const PREFACE_TIMEOUT_MS = 30_000;
const PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");

/** Reads just enough of a new connection to see whether it opens with the HTTP/2 preface, then hands it on. */
function routeByPreface(socket: Socket, route: (isHttp2: boolean, head: Buffer) => void): void {
  let seen = Buffer.alloc(0);
  const onData = (chunk: Buffer) => {
    seen = Buffer.concat([seen, chunk]);
    const n = Math.min(seen.length, PREFACE.length);
    const isHttp2 = seen.subarray(0, n).equals(PREFACE.subarray(0, n));
    if (isHttp2 && n < PREFACE.length) return;
    socket.off("data", onData);
    socket.pause();
    socket.setTimeout(0);
    route(isHttp2, seen);
  };
  socket.on("data", onData);
  // Until a protocol takes over (with its own timeouts), a silent connection only costs us: drop it.
  socket.setTimeout(PREFACE_TIMEOUT_MS, () => socket.destroy());
}
