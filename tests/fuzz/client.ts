// Sends one fuzz request exactly as generated: HTTP/1.1 over a raw `net` socket (so request lines, headers,
// framing and early closes are whatever the generator chose, not what an HTTP client would allow) or
// HTTP/2 through `node:http2` (h2c with prior knowledge, as gRPC clients connect). The outcome is what the
// assertions need: the status, gRPC/Connect error codes carried in trailers or end-stream frames, the
// latency, and whether the answer came within the deadline.
import http2, { type ClientHttp2Session } from "node:http2";
import net from "node:net";

/** How the request ends on the wire. */
export type Ending =
  /** The whole request is sent and the answer read. */
  | { kind: "complete" }
  /** Content-Length says `extra` more bytes than are sent, then the client half-closes and waits. */
  | { kind: "early-end"; extra: number }
  /** Only the first `cut` fraction of the bytes is sent, then the connection (or stream) is dropped `afterMs` later. */
  | { kind: "disconnect"; cut: number; afterMs: number };

/** How an HTTP/1.1 body is framed. */
export type Framing = "length" | "chunked" | "bad-chunked" | "duplicate-length" | "none";

export interface WireRequest {
  transport: "h1" | "h2";
  method: string;
  /** Request target: path and query, sent as is (h1) or as `:path` (h2). */
  target: string;
  headers: Array<[string, string]>;
  body: Uint8Array;
  framing: Framing;
  ending: Ending;
}

export interface Outcome {
  /** HTTP status; 0 when no answer came (closed, refused by our own client, or deliberately dropped). */
  status: number;
  /** grpc-status of a gRPC / gRPC-Web answer, when there was one. */
  grpcStatus?: number;
  /** grpc-message, percent-decoded, when there was one. */
  grpcMessage?: string;
  /** The error code of a Connect streaming end-stream message, when there was one. */
  connectCode?: string;
  /** First bytes of the answer body, for the report. */
  snippet: string;
  ms: number;
  /** No answer (nor close) within the deadline. */
  hung: boolean;
  /** The request could not be put on the wire by our own client (e.g. a header node:http2 refuses). */
  unsendable?: string;
}

const SNIPPET = 300;

/** Reads the gRPC-Web trailer frame (flag 0x80) or Connect end-stream frame (flag 0x02) of a framed body. */
function decodeGrpcMessage(raw: string): string {
  try {
    return decodeURIComponent(raw.trim());
  } catch {
    return raw.trim();
  }
}

function framedTrailers(body: Buffer): { grpcStatus?: number; grpcMessage?: string; connectCode?: string } {
  const out: { grpcStatus?: number; grpcMessage?: string; connectCode?: string } = {};
  let i = 0;
  while (i + 5 <= body.length) {
    const flags = body[i]!;
    const len = body.readUInt32BE(i + 1);
    const data = body.subarray(i + 5, i + 5 + len);
    if (flags & 0x80) {
      const m = /grpc-status:\s*(\d+)/i.exec(data.toString("latin1"));
      if (m) out.grpcStatus = Number(m[1]);
      const msg = /grpc-message:([^\r\n]*)/i.exec(data.toString("latin1"));
      if (msg) out.grpcMessage = decodeGrpcMessage(msg[1]!);
    } else if (flags & 0x02) {
      try {
        const end = JSON.parse(data.toString("utf8")) as { error?: { code?: string; message?: string } };
        if (end.error?.code) out.connectCode = end.error.code;
        if (end.error?.message) out.grpcMessage = end.error.message;
      } catch {
        out.connectCode = "unparsable end-stream message";
      }
    }
    i += 5 + len;
  }
  return out;
}

function dechunk(raw: Buffer): Buffer {
  const parts: Buffer[] = [];
  let i = 0;
  while (i < raw.length) {
    const eol = raw.indexOf("\r\n", i);
    if (eol < 0) break;
    const size = parseInt(raw.subarray(i, eol).toString("latin1"), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(raw.subarray(eol + 2, eol + 2 + size));
    i = eol + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

const STREAMING_TYPE = /^(?:application\/x-ndjson|text\/event-stream)/i;

function h1Bytes(req: WireRequest, host: string): Buffer {
  const head: string[] = [`${req.method} ${req.target} HTTP/1.1`, `host: ${host}`, "connection: close"];
  for (const [k, v] of req.headers) head.push(`${k}: ${v}`);
  let body: Buffer = Buffer.from(req.body);
  switch (req.framing) {
    case "length":
      head.push(`content-length: ${body.length + (req.ending.kind === "early-end" ? req.ending.extra : 0)}`);
      break;
    case "duplicate-length":
      head.push(`content-length: ${body.length}`, `content-length: ${body.length + 1}`);
      break;
    case "chunked":
      head.push("transfer-encoding: chunked");
      body = Buffer.concat([
        Buffer.from(`${body.length.toString(16)}\r\n`),
        body,
        Buffer.from(req.ending.kind === "early-end" ? "\r\n" : "\r\n0\r\n\r\n"),
      ]);
      break;
    case "bad-chunked":
      head.push("transfer-encoding: chunked");
      body = Buffer.concat([Buffer.from(`${(body.length + 7).toString(16)}zz\r\n`), body, Buffer.from("\r\n0\r\n")]);
      break;
    case "none":
      break;
  }
  // latin1 keeps every byte the generator chose in the head (unicode paths go out as their UTF-8 bytes).
  return Buffer.concat([Buffer.from(Buffer.from(head.join("\r\n") + "\r\n\r\n", "utf8")), body]);
}

export function sendH1(url: URL, req: WireRequest, deadlineMs: number): Promise<Outcome> {
  const started = performance.now();
  const bytes = h1Bytes(req, url.host);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let settled = false;
    const socket = net.connect({ host: url.hostname, port: Number(url.port) });
    const finish = (o: Omit<Outcome, "ms">) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      socket.destroy();
      resolve({ ...o, ms: performance.now() - started });
    };
    const parse = (final: boolean): Omit<Outcome, "ms"> | undefined => {
      let raw = Buffer.concat(chunks);
      // Interim answers (100 Continue to an expect header) come before the real one.
      while (/^HTTP\/1\.[01] 1\d\d /.test(raw.subarray(0, 13).toString("latin1")) && raw.includes("\r\n\r\n")) {
        raw = raw.subarray(raw.indexOf("\r\n\r\n") + 4);
      }
      const end = raw.indexOf("\r\n\r\n");
      if (end < 0)
        return final ? { status: 0, snippet: raw.toString("latin1").slice(0, SNIPPET), hung: false } : undefined;
      const head = raw.subarray(0, end).toString("latin1");
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
      const type = /\r\ncontent-type:\s*([^\r\n]*)/i.exec(head)?.[1] ?? "";
      // A stream may go on for as long as the server likes: its headers are the answer.
      if (!final && !STREAMING_TYPE.test(type)) return undefined;
      let body: Buffer = raw.subarray(end + 4);
      if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) body = dechunk(body);
      const headerStatus = /\r\ngrpc-status:\s*(\d+)/i.exec(head)?.[1];
      const headerMessage = /\r\ngrpc-message:([^\r\n]*)/i.exec(head)?.[1];
      const framed = /^application\/(?:grpc|connect)/i.test(type) ? framedTrailers(body) : {};
      return {
        status,
        ...(headerStatus !== undefined ? { grpcStatus: Number(headerStatus) } : {}),
        ...(headerMessage !== undefined ? { grpcMessage: decodeGrpcMessage(headerMessage) } : {}),
        ...framed,
        snippet: body.toString("utf8").slice(0, SNIPPET),
        hung: false,
      };
    };
    const deadline = setTimeout(() => {
      const partial = parse(true);
      // Headers of a stream came in time: not a hang.
      if (partial && partial.status > 0) finish(partial);
      else finish({ status: 0, snippet: "", hung: req.ending.kind !== "disconnect" });
    }, deadlineMs);
    socket.on("data", (c: Buffer) => {
      chunks.push(c);
      const early = parse(false);
      if (early) finish(early);
    });
    socket.on("end", () => finish(parse(true)!));
    socket.on("close", () => finish(parse(true)!));
    socket.on("error", () => finish(parse(true)!));
    socket.once("connect", () => {
      const e = req.ending;
      if (e.kind === "disconnect") {
        socket.write(bytes.subarray(0, Math.floor(bytes.length * e.cut)));
        setTimeout(() => finish({ status: 0, snippet: "", hung: false }), e.afterMs);
      } else if (e.kind === "early-end") {
        socket.end(bytes);
      } else {
        socket.write(bytes);
      }
    });
  });
}

/** One HTTP/2 session per base URL, opened again when the server closed it. */
export class H2Pool {
  private session: ClientHttp2Session | undefined;
  constructor(private readonly url: string) {}

  get(): ClientHttp2Session {
    const s = this.session;
    if (s && !s.closed && !s.destroyed) return s;
    const fresh = http2.connect(this.url);
    fresh.on("error", () => {});
    fresh.on("goaway", () => {
      if (this.session === fresh) this.session = undefined;
    });
    this.session = fresh;
    return fresh;
  }

  close(): void {
    this.session?.destroy();
    this.session = undefined;
  }
}

// Headers node:http2 sets itself or forbids (connection-specific ones are a protocol error in HTTP/2).
const H2_SKIP = new Set(["host", "connection", "transfer-encoding", "keep-alive", "upgrade", "proxy-connection"]);

export function sendH2(pool: H2Pool, req: WireRequest, deadlineMs: number): Promise<Outcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    let status = 0;
    let grpcStatus: number | undefined;
    let grpcMessage: string | undefined;
    let type = "";
    const chunks: Buffer[] = [];
    let stream: http2.ClientHttp2Stream | undefined;
    // eslint-disable-next-line prefer-const -- assigned once the stream exists; finish() may run before that
    let deadline: NodeJS.Timeout | undefined;
    const finish = (o: Partial<Outcome> & { hung?: boolean }) => {
      if (settled) return;
      settled = true;
      if (deadline) clearTimeout(deadline);
      if (stream && !stream.closed) stream.close(http2.constants.NGHTTP2_CANCEL);
      const body = Buffer.concat(chunks);
      const framed = /^application\/(?:grpc|connect)/i.test(type) ? framedTrailers(body) : {};
      resolve({
        status,
        ...(grpcStatus !== undefined ? { grpcStatus } : {}),
        ...(grpcMessage !== undefined ? { grpcMessage } : {}),
        ...framed,
        snippet: body.toString("utf8").slice(0, SNIPPET),
        hung: false,
        ...o,
        ms: performance.now() - started,
      });
    };
    const headers: http2.OutgoingHttpHeaders = { ":method": req.method, ":path": req.target };
    for (const [k, v] of req.headers) {
      const name = k.toLowerCase();
      if (H2_SKIP.has(name)) continue;
      const prior = headers[name];
      headers[name] = prior === undefined ? v : [...(Array.isArray(prior) ? prior : [String(prior)]), v];
    }
    if (req.framing === "length" || req.framing === "duplicate-length") {
      headers["content-length"] = String(req.body.length + (req.ending.kind === "early-end" ? req.ending.extra : 0));
    }
    try {
      stream = pool.get().request(headers, { endStream: false });
    } catch (err) {
      finish({ unsendable: (err as Error).message });
      return;
    }
    deadline = setTimeout(() => {
      if (status > 0 && STREAMING_TYPE.test(type)) finish({});
      else finish({ hung: req.ending.kind !== "disconnect" });
    }, deadlineMs);
    stream.on("response", (h) => {
      status = Number(h[":status"] ?? 0);
      type = String(h["content-type"] ?? "");
      if (h["grpc-status"] !== undefined) grpcStatus = Number(h["grpc-status"]);
      if (h["grpc-message"] !== undefined) grpcMessage = decodeGrpcMessage(String(h["grpc-message"]));
      if (STREAMING_TYPE.test(type)) finish({});
    });
    stream.on("trailers", (t) => {
      if (t["grpc-status"] !== undefined) grpcStatus = Number(t["grpc-status"]);
      if (t["grpc-message"] !== undefined) grpcMessage = decodeGrpcMessage(String(t["grpc-message"]));
    });
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.on("end", () => finish({}));
    stream.on("close", () => finish({}));
    stream.on("error", (err) =>
      finish(status ? {} : { unsendable: undefined, snippet: `stream error: ${err.message}` }),
    );
    const e = req.ending;
    const body = Buffer.from(req.body);
    if (e.kind === "disconnect") {
      stream.write(body.subarray(0, Math.floor(body.length * e.cut)));
      setTimeout(() => finish({ status: 0 }), e.afterMs);
    } else {
      // An early end on HTTP/2 is a stream that ends before its declared content-length.
      stream.end(body);
    }
  });
}
