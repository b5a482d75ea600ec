// Connect, gRPC and gRPC-Web requests (`/<package>.<Service>/<Method>`) for a registered service go to
// its backend unchanged: to a node handler in the same process (all-in-one) or proxied over HTTP/2 to the
// service's base URL (distributed), streaming both ways and keeping gRPC trailers. Headers are filtered
// like REST ones, plus the headers the three protocols need.
// Issue 28: a service that cannot be reached, or that dies mid-call, is `unavailable` (503) in the caller's own
// protocol: a new call gets the protocol's error (Connect unary: HTTP 503 with a Connect error body; a Connect stream:
// its end-of-stream message with the error; gRPC and gRPC-Web: grpc-status 14), and a stream cut by the service ends
// with that error instead of a bare end of stream (README.md, "Errors").
// Issue 28 finding 5: a service given as replicas (several URLs) gets each call on the next replica in turn whose
// connection opens; a replica that refuses is set aside (the kit's ReplicaSet, shared with the gateway's REST
// transport to the service) and the call goes to the next one. The caller's body is read only once a connection is
// open, so nothing has been sent to a replica that refused.
import http2, { type ClientHttp2Session, type Http2ServerRequest, type Http2ServerResponse } from "node:http2";
import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { DescService } from "@bufbuild/protobuf";
import type { ReplicaSet } from "@tt/kit";
import type { Logger } from "pino";
import { forwardRequestHeaders, requestIdOf, type HeaderPolicy } from "./headers.ts";

export type NodeRequest = IncomingMessage | Http2ServerRequest;
export type NodeResponse = ServerResponse | Http2ServerResponse;
export type NodeHandler = (req: NodeRequest, res: NodeResponse) => void;

/**
 * Where a service's Connect calls go: a handler in this process (all-in-one), its one base URL (a cluster's Service),
 * or its replicas (the local distributed runner, issue 28: each call to the next one in turn that can be reached).
 */
export type ConnectTarget = { handler: NodeHandler } | { baseUrl: string } | { replicas: ReplicaSet };

/** A backend died mid-answer where no error can be written any more (inside a message); the response is reset. */
export class PassthroughError extends Error {
  override name = "PassthroughError";
}

/** What a caller is told when the service cannot be reached or its answer was cut (Connect code `unavailable`). */
export const UNREACHABLE_MESSAGE = "the service is unavailable, try again shortly";

type Protocol = "connect-unary" | "connect-stream" | "grpc" | "grpc-web";

function protocolOf(contentType: string): Protocol {
  if (contentType.startsWith("application/grpc-web")) return "grpc-web";
  if (contentType.startsWith("application/grpc")) return "grpc";
  if (contentType.startsWith("application/connect+")) return "connect-stream";
  return "connect-unary";
}

/** One enveloped message (flags, big-endian length, data), as Connect streams and gRPC-Web frame them. */
function envelope(flags: number, data: Uint8Array): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt8(flags, 0);
  head.writeUInt32BE(data.length, 1);
  return Buffer.concat([head, data]);
}

/** Follows the envelopes of a stream's body: whether it is between two messages, and the flags seen. */
class Envelopes {
  private header = Buffer.alloc(0);
  private remaining = 0;
  flagsSeen = 0;
  get atBoundary(): boolean {
    return this.header.length === 0 && this.remaining === 0;
  }
  push(chunk: Buffer): void {
    let i = 0;
    while (i < chunk.length) {
      if (this.remaining > 0) {
        const n = Math.min(this.remaining, chunk.length - i);
        this.remaining -= n;
        i += n;
        continue;
      }
      const n = Math.min(5 - this.header.length, chunk.length - i);
      this.header = Buffer.concat([this.header, chunk.subarray(i, i + n)]);
      i += n;
      if (this.header.length === 5) {
        this.flagsSeen |= this.header.readUInt8(0);
        this.remaining = this.header.readUInt32BE(1);
        this.header = Buffer.alloc(0);
      }
    }
  }
}

/** The Connect end-of-stream flag, and gRPC-Web's trailers flag. */
const CONNECT_END_STREAM = 0b10;
const GRPC_WEB_TRAILERS = 0x80;

function unreachableTrailers(): Record<string, string> {
  return { "grpc-status": "14", "grpc-message": encodeURIComponent(UNREACHABLE_MESSAGE) };
}

/** The whole answer of a call whose service could not be reached, in the caller's protocol. */
function answerUnreachable(res: NodeResponse, protocol: Protocol, contentType: string): void {
  const r = res as ServerResponse;
  const error = { code: "unavailable", message: UNREACHABLE_MESSAGE };
  if (protocol === "connect-unary") {
    r.writeHead(503, { "content-type": "application/json" }).end(JSON.stringify(error));
  } else if (protocol === "connect-stream") {
    r.writeHead(200, { "content-type": contentType }).end(
      envelope(CONNECT_END_STREAM, Buffer.from(JSON.stringify({ error }))),
    );
  } else {
    // Trailers-only: the status in the headers, no body.
    r.writeHead(200, { "content-type": contentType, ...unreachableTrailers() }).end();
  }
}

/** Headers the Connect, gRPC and gRPC-Web protocols need, on top of the REST allow-list. */
export const PROTOCOL_HEADERS: readonly string[] = [
  "content-type",
  "content-encoding",
  "content-length",
  "accept-encoding",
  "connect-protocol-version",
  "connect-timeout-ms",
  "connect-accept-encoding",
  "connect-content-encoding",
  "grpc-timeout",
  "grpc-encoding",
  "grpc-accept-encoding",
  "te",
  "x-grpc-web",
  "x-user-agent",
];

// Connection-level headers that HTTP/2 forbids.
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "proxy-connection", "host"]);

export interface ConnectPassthrough {
  /** Answers when the path is an RPC of a registered service; returns false otherwise. */
  tryHandle(req: NodeRequest, res: NodeResponse, path: string, extraHeaders?: Record<string, string>): boolean;
  close(): void;
}

export function createConnectPassthrough(
  backends: Array<{ services: DescService[]; connect: ConnectTarget }>,
  policy: HeaderPolicy,
  logger?: Logger,
  /**
   * A session to a service without traffic for this long is closed by the gateway, before the service's own
   * idle timeout (IDLE_TIMEOUT_MS, 65 s by default) would: a call sent while the service's GOAWAY is on its way
   * would be refused (a 502). Streams still open finish; new calls get a new session. Default 60 s.
   */
  idleSessionMs = 60_000,
): ConnectPassthrough {
  const byPath = new Map<string, ConnectTarget>();
  for (const b of backends) {
    for (const s of b.services) for (const m of s.methods) byPath.set(`/${s.typeName}/${m.name}`, b.connect);
  }
  const allowed = new Set([...policy.request, ...PROTOCOL_HEADERS]);
  const sessions = new Map<string, ClientHttp2Session>();

  const session = (baseUrl: string): ClientHttp2Session => {
    let s = sessions.get(baseUrl);
    if (s && !s.closed && !s.destroyed) return s;
    s = http2.connect(baseUrl);
    const created = s;
    const forget = () => {
      if (sessions.get(baseUrl) === created) sessions.delete(baseUrl);
    };
    s.on("error", (e) => {
      logger?.warn({ err: e, baseUrl }, "connect passthrough session failed");
      forget();
    });
    s.on("close", forget);
    s.on("goaway", forget);
    s.setTimeout(idleSessionMs, () => {
      forget();
      created.close();
    });
    s.unref();
    sessions.set(baseUrl, s);
    return s;
  };

  /** A connection to one of the replicas, each tried in the set's order until one opens; undefined when none does. */
  const replicaSession = async (
    replicas: ReplicaSet,
  ): Promise<{ baseUrl: string; session: ClientHttp2Session } | undefined> => {
    for (const i of replicas.order()) {
      const baseUrl = replicas.urls[i]!;
      const s = session(baseUrl);
      const error = s.connecting
        ? await new Promise<Error | undefined>((resolve) => {
            const onConnect = () => {
              s.off("error", onError);
              resolve(undefined);
            };
            const onError = (e: Error) => {
              s.off("connect", onConnect);
              resolve(e);
            };
            s.once("connect", onConnect);
            s.once("error", onError);
          })
        : s.destroyed || s.closed
          ? new Error("the session closed")
          : undefined;
      if (error) {
        replicas.failed(i, error);
        continue;
      }
      replicas.reached(i);
      return { baseUrl, session: s };
    }
    return undefined;
  };

  const filtered = (req: NodeRequest, requestId: string): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers as IncomingHttpHeaders)) {
      if (!allowed.has(k) || v === undefined) continue;
      out[k] = Array.isArray(v) ? v.join(", ") : v;
    }
    forwardRequestHeaders(policy, req.headers as IncomingHttpHeaders, req.socket?.remoteAddress, requestId).forEach(
      (v, k) => (out[k] = v),
    );
    return out;
  };

  const proxy = (
    baseUrl: string,
    req: NodeRequest,
    res: NodeResponse,
    headers: Record<string, string>,
    upstream: ClientHttp2Session = session(baseUrl),
  ) => {
    const url = new URL(baseUrl);
    const contentType = String(req.headers["content-type"] ?? "");
    const protocol = protocolOf(contentType);
    const stream = upstream.request(
      {
        ...headers,
        ":method": req.method ?? "POST",
        ":path": url.pathname.replace(/\/$/, "") + (req.url ?? "/"),
      },
      // Node ends a GET's stream at once unless told otherwise; the caller's body (even on a GET, with its
      // content-length) goes to the service as sent, which answers as it would in process (not a 502).
      { endStream: false },
    );
    req.pipe(stream);
    const cancel = () => {
      if (!stream.closed) stream.close(http2.constants.NGHTTP2_CANCEL);
    };
    res.on("close", cancel);
    const envelopes = new Envelopes();
    /** Whether the service's answer said it was complete (the protocol's end: trailers, end-of-stream message). */
    let complete = false;
    let finished = false;
    stream.on("response", (h) => {
      const out: OutgoingHttpHeaders = {};
      for (const [k, v] of Object.entries(h)) if (!k.startsWith(":") && !HOP_BY_HOP.has(k)) out[k] = v;
      // A trailers-only gRPC answer carries its status in the headers.
      if (h["grpc-status"] !== undefined) complete = true;
      (res as ServerResponse).writeHead(Number(h[":status"] ?? 502), out);
      stream.on("data", (chunk: Buffer) => {
        envelopes.push(chunk);
        if (!(res as NodeJS.WritableStream).write(chunk)) stream.pause();
      });
      (res as NodeJS.EventEmitter).on("drain", () => stream.resume());
    });
    stream.on("trailers", (t) => {
      const out: Record<string, string> = {};
      for (const [k, v] of Object.entries(t)) if (!k.startsWith(":") && v !== undefined) out[k] = String(v);
      complete = true;
      res.addTrailers(out);
    });
    /** Ends the answer: as the service did, or, cut short, with `unavailable` where the protocol can still say so. */
    const finish = (err?: Error) => {
      if (finished || res.writableEnded || res.destroyed) return;
      finished = true;
      if (protocol === "connect-stream" && envelopes.flagsSeen & CONNECT_END_STREAM) complete = true;
      if (protocol === "grpc-web" && envelopes.flagsSeen & GRPC_WEB_TRAILERS) complete = true;
      if (protocol === "connect-unary" && !err) complete = true;
      if (complete && res.headersSent) {
        res.end();
        return;
      }
      logger?.warn(
        { err, baseUrl, path: req.url },
        "connect passthrough: the service could not be reached or cut the call",
      );
      if (!res.headersSent) {
        answerUnreachable(res, protocol, contentType);
      } else if (protocol === "connect-stream" && envelopes.atBoundary) {
        const error = { code: "unavailable", message: UNREACHABLE_MESSAGE };
        res.end(envelope(CONNECT_END_STREAM, Buffer.from(JSON.stringify({ error }))));
      } else if (protocol === "grpc-web" && envelopes.atBoundary) {
        const text = Object.entries(unreachableTrailers())
          .map(([k, v]) => `${k}: ${v}\r\n`)
          .join("");
        res.end(envelope(GRPC_WEB_TRAILERS, Buffer.from(text)));
      } else if (protocol === "grpc") {
        res.addTrailers(unreachableTrailers());
        res.end();
      } else {
        res.destroy(new PassthroughError(`${baseUrl}: ${err?.message ?? "the answer was cut"}`));
      }
    };
    stream.on("end", () => finish());
    stream.on("error", (e) => finish(e));
    // A session torn down (the service died) may close the stream without an error or an end.
    stream.on("close", () => finish(stream.rstCode ? new Error(`stream reset (${stream.rstCode})`) : undefined));
  };

  return {
    tryHandle(req, res, path, extraHeaders = {}) {
      const target = byPath.get(path);
      if (!target) return false;
      for (const [k, v] of Object.entries(extraHeaders)) res.setHeader(k, v);
      const requestId = requestIdOf(req.headers as IncomingHttpHeaders);
      const headers = filtered(req, requestId);
      res.setHeader("x-request-id", requestId);
      if ("handler" in target) {
        // The handler reads req.headers; replace them in place, keeping HTTP/2 pseudo-headers and the host
        // (the adapter builds the request URL from it).
        const h = req.headers as Record<string, unknown>;
        for (const k of Object.keys(h)) if (!k.startsWith(":") && k !== "host" && !(k in headers)) delete h[k];
        Object.assign(h, headers);
        target.handler(req, res);
      } else if ("baseUrl" in target) {
        proxy(target.baseUrl, req, res, headers);
      } else {
        void replicaSession(target.replicas).then((reached) => {
          if (res.writableEnded || res.destroyed) return;
          if (reached) {
            proxy(reached.baseUrl, req, res, headers, reached.session);
            return;
          }
          logger?.warn(
            { replicas: target.replicas.urls, path: req.url },
            "connect passthrough: no replica could be reached",
          );
          answerUnreachable(
            res,
            protocolOf(String(req.headers["content-type"] ?? "")),
            String(req.headers["content-type"] ?? ""),
          );
        });
      }
      return true;
    },
    close() {
      for (const s of sessions.values()) s.close();
      sessions.clear();
    },
  };
}
