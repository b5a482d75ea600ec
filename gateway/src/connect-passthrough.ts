// Connect, gRPC and gRPC-Web requests (`/<package>.<Service>/<Method>`) for a registered service go to
// its backend unchanged: to a node handler in the same process (all-in-one) or proxied over HTTP/2 to the
// service's base URL (distributed), streaming both ways and keeping gRPC trailers. Headers are filtered
// like REST ones, plus the headers the three protocols need.
import http2, { type ClientHttp2Session, type Http2ServerRequest, type Http2ServerResponse } from "node:http2";
import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { DescService } from "@bufbuild/protobuf";
import type { Logger } from "pino";
import { forwardRequestHeaders, requestIdOf, type HeaderPolicy } from "./headers.ts";
import { restErrorBody } from "./errors.ts";

export type NodeRequest = IncomingMessage | Http2ServerRequest;
export type NodeResponse = ServerResponse | Http2ServerResponse;
export type NodeHandler = (req: NodeRequest, res: NodeResponse) => void;

export type ConnectTarget = { handler: NodeHandler } | { baseUrl: string };

/** A backend could not be reached; the caller gets a 502. */
export class PassthroughError extends Error {
  override name = "PassthroughError";
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

  const proxy = (baseUrl: string, req: NodeRequest, res: NodeResponse, headers: Record<string, string>) => {
    const url = new URL(baseUrl);
    const stream = session(baseUrl).request(
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
    stream.on("response", (h) => {
      const out: OutgoingHttpHeaders = {};
      for (const [k, v] of Object.entries(h)) if (!k.startsWith(":") && !HOP_BY_HOP.has(k)) out[k] = v;
      (res as ServerResponse).writeHead(Number(h[":status"] ?? 502), out);
      stream.pipe(res as NodeJS.WritableStream);
    });
    stream.on("trailers", (t) => {
      const out: Record<string, string> = {};
      for (const [k, v] of Object.entries(t)) if (!k.startsWith(":") && v !== undefined) out[k] = String(v);
      res.addTrailers(out);
    });
    stream.on("error", (e) => {
      logger?.warn({ err: e, baseUrl }, "connect passthrough request failed");
      if (!res.headersSent) {
        const body = JSON.stringify(restErrorBody(502, "bad gateway"));
        (res as ServerResponse).writeHead(502, { "content-type": "application/json" });
        res.end(body);
      } else {
        res.destroy(new PassthroughError(`${baseUrl}: ${e.message}`));
      }
    });
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
      } else {
        proxy(target.baseUrl, req, res, headers);
      }
      return true;
    },
    close() {
      for (const s of sessions.values()) s.close();
      sessions.clear();
    },
  };
}
