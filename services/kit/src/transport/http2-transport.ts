// How a process reaches a service in another process (distributed mode): one HTTP/2 session per service, and a
// Connect Transport over it. The gateway routes through it, and so do the service clients of the kit
// (`ServiceDeps.clients`), so both share one tuned client.
//
// Unary calls, nearly all REST traffic, go through the small client below, straight on the session's streams, with
// binary messages: the Connect protocol by default, gRPC with BACKEND_PROTOCOL=grpc. Connect's generic Node client
// spent about 300 µs of CPU per call here (per call: async-iterable pipelines, linked AbortControllers, errors
// created only to close them), this one about 80 µs, and that is most of what the gateway adds to a call in
// gateway/bench/distributed.ts. Server-streaming calls use Connect's own transports on the same session.
// gateway/src/backend-transport.test.ts holds the unary client to the answers Connect's transports give.
import http2 from "node:http2";
import net from "node:net";
import {
  create,
  fromBinary,
  isMessage,
  toBinary,
  type DescMessage,
  type DescMethodUnary,
  type MessageInitShape,
  type MessageShape,
} from "@bufbuild/protobuf";
import { Code, ConnectError, type Transport, type UnaryResponse } from "@connectrpc/connect";
import { encodeEnvelope } from "@connectrpc/connect/protocol";
import {
  codeFromHttpStatus,
  contentTypeUnaryProto,
  errorFromJsonBytes,
  parseContentType,
} from "@connectrpc/connect/protocol-connect";
import * as grpc from "@connectrpc/connect/protocol-grpc";
import { createConnectTransport, createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";

export type BackendProtocol = "connect" | "grpc";

/** The largest response body taken from a service unless told otherwise (Connect's own default is 4 GiB). */
export const DEFAULT_READ_MAX_BYTES = 64 * 1024 * 1024;

export interface BackendTransportOptions {
  /** The service's base URL (http:// for h2c, https:// for TLS). */
  baseUrl: string;
  session: Http2SessionManager;
  /** Default "connect". */
  protocol?: BackendProtocol;
  /** Default DEFAULT_READ_MAX_BYTES. */
  readMaxBytes?: number;
}

/**
 * One HTTP/2 session to the service at `baseUrl`, kept alive with pings. The client closes it after
 * `idleConnectionTimeoutMs` without a call (default 60 s), before the service's own idle timeout (IDLE_TIMEOUT_MS,
 * 65 s by default) would: a request sent while the service's GOAWAY is on its way would be refused.
 */
export function backendSession(baseUrl: string, opts: { idleConnectionTimeoutMs?: number } = {}): Http2SessionManager {
  const url = new URL(baseUrl);
  // Small unary frames on a long-lived session: without TCP_NODELAY, Nagle holds some back a round trip
  // (measured 5-20 % more throughput and a lower p50 with it). TLS (https) keeps Node's default socket.
  const plain =
    url.protocol === "http:"
      ? { createConnection: () => net.connect({ host: url.hostname, port: Number(url.port) || 80, noDelay: true }) }
      : {};
  const idleConnectionTimeoutMs = opts.idleConnectionTimeoutMs ?? 60_000;
  return new Http2SessionManager(baseUrl, { pingIntervalMs: 30_000, idleConnectionTimeoutMs }, plain);
}

export function createBackendTransport(opts: BackendTransportOptions): Transport {
  const readMaxBytes = opts.readMaxBytes ?? DEFAULT_READ_MAX_BYTES;
  const options = { baseUrl: opts.baseUrl, httpVersion: "2" as const, sessionManager: opts.session, readMaxBytes };
  const streaming =
    opts.protocol === "grpc"
      ? createGrpcTransport(options)
      : createConnectTransport({ ...options, useBinaryFormat: true });
  const wire = opts.protocol === "grpc" ? GRPC : CONNECT;
  const prefix = new URL(opts.baseUrl).pathname.replace(/\/+$/, "");
  return {
    unary: (method, signal, timeoutMs, header, input) =>
      unaryCall(opts.session, `${prefix}/${method.parent.typeName}/${method.name}`, readMaxBytes, wire, {
        method,
        signal,
        timeoutMs,
        header,
        input,
      }),
    stream: (method, signal, timeoutMs, header, input, contextValues) =>
      streaming.stream(method, signal, timeoutMs, header, input, contextValues),
  };
}

/** What differs between the two protocols in a unary call with a binary message and nothing compressed. */
interface UnaryWire {
  /** Sets the protocol's request headers (content type, deadline). */
  requestHeaders(headers: http2.OutgoingHttpHeaders, timeoutMs: number | undefined): void;
  requestBody(message: Uint8Array): Uint8Array;
  /** Connect sends a unary call's trailers as headers with this prefix; gRPC as HTTP/2 trailers. */
  trailerPrefix?: string;
  /** What a complete answer means. */
  outcome<I extends DescMessage, O extends DescMessage>(
    method: DescMethodUnary<I, O>,
    status: number,
    header: Headers,
    trailer: Headers,
    body: Buffer,
  ): ConnectError | UnaryResponse<I, O>;
}

const CONNECT: UnaryWire = {
  requestHeaders(headers, timeoutMs) {
    headers["content-type"] = contentTypeUnaryProto;
    headers["connect-protocol-version"] = "1";
    if (timeoutMs !== undefined) headers["connect-timeout-ms"] = String(timeoutMs);
  },
  requestBody: (message) => message,
  trailerPrefix: "trailer-",
  outcome: connectOutcome,
};

const GRPC: UnaryWire = {
  requestHeaders(headers, timeoutMs) {
    headers["content-type"] = grpc.contentTypeProto;
    // Required by the gRPC-over-HTTP/2 specification (it flushes out proxies that do not forward trailers).
    headers["te"] = "trailers";
    if (timeoutMs !== undefined) headers["grpc-timeout"] = `${timeoutMs}m`;
  },
  requestBody: (message) => encodeEnvelope(0, message),
  outcome: grpcOutcome,
};

interface UnaryCall<I extends DescMessage, O extends DescMessage> {
  method: DescMethodUnary<I, O>;
  signal: AbortSignal | undefined;
  timeoutMs: number | undefined;
  header: HeadersInit | undefined;
  input: MessageInitShape<I>;
}

/** One unary call (binary, no compression) on a stream of `session`. */
async function unaryCall<I extends DescMessage, O extends DescMessage>(
  session: Http2SessionManager,
  path: string,
  readMaxBytes: number,
  wire: UnaryWire,
  call: UnaryCall<I, O>,
): Promise<UnaryResponse<I, O>> {
  const { method, signal } = call;
  // As in Connect's transports: no value, zero or less means no deadline.
  const timeoutMs = call.timeoutMs !== undefined && call.timeoutMs > 0 ? call.timeoutMs : undefined;
  const requestHeaders: http2.OutgoingHttpHeaders = {};
  if (call.header) {
    const header = call.header instanceof Headers ? call.header : new Headers(call.header);
    header.forEach((value, name) => (requestHeaders[name] = value));
  }
  wire.requestHeaders(requestHeaders, timeoutMs);
  const { input } = call;
  const body = wire.requestBody(
    toBinary(method.input, isMessage(input, method.input) ? input : create(method.input, input)),
  );

  if (signal?.aborted) throw ConnectError.from(signal.reason, Code.Canceled);
  let stream: http2.ClientHttp2Stream;
  try {
    stream = await session.request("POST", path, requestHeaders, {});
  } catch (err) {
    // The session manager already reports a refused or lost connection as Unavailable.
    throw ConnectError.from(err, Code.Unavailable);
  }

  return new Promise<UnaryResponse<I, O>>((resolve, reject) => {
    let status = 0;
    const header = new Headers();
    const trailer = new Headers();
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (outcome: ConnectError | UnaryResponse<I, O>) => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      if (outcome instanceof ConnectError) {
        // Tell the service to stop working on a call nobody waits for any more.
        if (!stream.closed) stream.close(http2.constants.NGHTTP2_CANCEL);
        reject(outcome);
      } else {
        resolve(outcome);
      }
    };
    const onAbort = () => settle(ConnectError.from(signal!.reason, Code.Canceled));
    signal?.addEventListener("abort", onAbort, { once: true });
    // Aborted while the stream was being opened: no event will come any more.
    if (signal?.aborted) onAbort();
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => settle(new ConnectError("the operation timed out", Code.DeadlineExceeded)), timeoutMs);

    stream.on("response", (headers) => {
      status = Number(headers[":status"]);
      for (const name in headers) {
        const value = headers[name];
        if (name.startsWith(":") || value === undefined) continue;
        const [target, key] =
          wire.trailerPrefix !== undefined && name.startsWith(wire.trailerPrefix)
            ? [trailer, name.slice(wire.trailerPrefix.length)]
            : [header, name];
        for (const v of Array.isArray(value) ? value : [value]) target.append(key, String(v));
      }
    });
    stream.on("trailers", (headers) => {
      for (const name in headers) {
        const value = headers[name];
        if (name.startsWith(":") || value === undefined) continue;
        for (const v of Array.isArray(value) ? value : [value]) trailer.append(name, String(v));
      }
    });
    stream.on("data", (chunk: Buffer) => {
      session.notifyResponseByteRead(stream);
      size += chunk.length;
      if (size > readMaxBytes) {
        settle(new ConnectError(`the response is larger than ${readMaxBytes} bytes`, Code.ResourceExhausted));
      } else {
        chunks.push(chunk);
      }
    });
    stream.on("end", () => settle(wire.outcome(method, status, header, trailer, Buffer.concat(chunks, size))));
    // A lost connection, or a stream the service reset: the service did not answer, which the caller may retry.
    stream.on("error", (err) => settle(ConnectError.from(err, Code.Unavailable)));
    stream.on("close", () => {
      // After a complete answer this is a no-op; errors cost a stack trace, so none is made for nothing.
      if (!settled) {
        settle(new ConnectError(`the service closed the stream (HTTP/2 code ${stream.rstCode})`, Code.Unavailable));
      }
    });
    stream.end(body);
  });
}

/** What a complete unary answer means, by the Connect protocol. */
function connectOutcome<I extends DescMessage, O extends DescMessage>(
  method: DescMethodUnary<I, O>,
  status: number,
  header: Headers,
  trailer: Headers,
  body: Buffer,
): ConnectError | UnaryResponse<I, O> {
  // The stream ended before any response headers: the connection went away under the call.
  if (status === 0) return new ConnectError("the service closed the stream without an answer", Code.Unavailable);
  const type = header.get("content-type");
  const parsed = parseContentType(type);
  if (status !== 200) {
    const metadata = new Headers(header);
    trailer.forEach((value, name) => metadata.append(name, value));
    const code = codeFromHttpStatus(status);
    // A Connect error body is JSON; anything else (a proxy's page, say) leaves the status to speak.
    if (!parsed || parsed.binary) return new ConnectError(`HTTP ${status}`, code, metadata);
    try {
      // Takes the metadata into the error it returns, or into the fallback it throws.
      return errorFromJsonBytes(body, metadata, new ConnectError(`HTTP ${status}`, code));
    } catch (fallback) {
      return fallback as ConnectError;
    }
  }
  const encoding = header.get("content-encoding");
  if (encoding !== null && encoding.toLowerCase() !== "identity") {
    // Nothing asked for compression (no accept-encoding is sent).
    return new ConnectError(`unsupported response encoding "${encoding}"`, Code.Internal, header);
  }
  if (!parsed?.binary || parsed.stream) {
    return new ConnectError(`unsupported content type ${type}`, parsed ? Code.Internal : Code.Unknown, header);
  }
  let message: MessageShape<O>;
  try {
    message = fromBinary(method.output, body);
  } catch (err) {
    return new ConnectError(`cannot parse ${method.output.typeName}: ${String(err)}`, Code.Internal);
  }
  return { stream: false, service: method.parent, method, header, message, trailer };
}

/**
 * What a complete unary answer means, by the gRPC protocol: the checks and errors of Connect's gRPC transport, in its
 * order (status and content type, the enveloped message, then the status in the trailers or a trailers-only answer).
 */
function grpcOutcome<I extends DescMessage, O extends DescMessage>(
  method: DescMethodUnary<I, O>,
  status: number,
  header: Headers,
  trailer: Headers,
  body: Buffer,
): ConnectError | UnaryResponse<I, O> {
  if (status === 0) return new ConnectError("the service closed the stream without an answer", Code.Unavailable);
  let headerError: ConnectError | undefined;
  try {
    headerError = grpc.validateResponse(status, header).headerError;
  } catch (err) {
    return err as ConnectError;
  }
  const encoding = header.get(grpc.headerEncoding);
  if (encoding !== null && encoding.toLowerCase() !== "identity") {
    return new ConnectError(`unsupported response encoding "${encoding}"`, Code.Internal, header);
  }
  let data: Uint8Array | undefined;
  for (let offset = 0; offset < body.length;) {
    if (body.length - offset < 5 || body.length - offset - 5 < body.readUInt32BE(offset + 1)) {
      return new ConnectError("protocol error: incomplete envelope", Code.InvalidArgument);
    }
    const flags = body[offset]!;
    const length = body.readUInt32BE(offset + 1);
    if ((flags & 0b01) !== 0) {
      return new ConnectError("received compressed envelope, but do not know how to decompress", Code.Internal);
    }
    if (data !== undefined) {
      return new ConnectError("protocol error: received extra output message for unary method", Code.Unimplemented);
    }
    data = body.subarray(offset + 5, offset + 5 + length);
    offset += 5 + length;
  }
  let message: MessageShape<O> | undefined;
  if (data !== undefined) {
    try {
      message = fromBinary(method.output, data);
    } catch (err) {
      return new ConnectError(`parse binary: ${err instanceof Error ? err.message : String(err)}`, Code.Internal);
    }
  }
  try {
    grpc.validateTrailer(trailer, header);
  } catch (err) {
    return err as ConnectError;
  }
  if (message === undefined) {
    // A trailers-only answer: the status is in the headers.
    if (headerError) return headerError;
    return new ConnectError(
      "protocol error: missing output message for unary method",
      trailer.has(grpc.headerGrpcStatus) ? Code.Unimplemented : Code.Unknown,
    );
  }
  if (headerError) {
    return new ConnectError("protocol error: received output message for unary method with error status", Code.Unknown);
  }
  return { stream: false, service: method.parent, method, header, message, trailer };
}

/**
 * How long a client keeps an idle HTTP/2 session to a service whose servers close idle sessions after
 * `serverIdleTimeoutMs` (IDLE_TIMEOUT_MS, the same for every process of a deployment): the client closes first,
 * as a call sent while the server's GOAWAY is on its way would be refused.
 */
export function clientIdleTimeoutMs(serverIdleTimeoutMs: number): number {
  return Math.max(Math.floor(serverIdleTimeoutMs / 2), serverIdleTimeoutMs - 5000);
}
