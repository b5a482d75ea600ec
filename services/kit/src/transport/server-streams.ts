// The kit serves server-streaming calls (a live room's join stream: thousands open at once, for hours) with a wire
// handler of its own, and leaves everything else (but unary gRPC, below) to Connect's Node adapter. Connect's handler
// holds about 32 KB of heap per open stream, most of it the transpiled async generators of its per-call pipeline
// (body reader, envelope split, parse, invoke, serialize, join, write), and pays tens of microseconds per message and
// caller to go through them (bench:stage). Here an open stream holds its context and what its interceptors and
// implementation keep (little once the implementation has handed the stream over: DirectStream.hold), and a message
// is serialized, enveloped and written in one step.
//
// Unary calls over gRPC come here too: Connect's gRPC handler puts a unary call through the same per-call streaming
// pipeline, and a service spent 366 µs of CPU per gRPC call against 207 µs per Connect call in `bench:gateway`'s
// distributed part; here a unary call is read, parsed, run through the interceptors and the implementation
// (invokeUnary, as the in-process transport runs it) and answered with one message and the trailers (164 µs, record
// 0348). Unary calls over Connect and gRPC-Web stay with Connect's handler, whose unary path they already take.
//
// What is the same as Connect's, because it is Connect's: content types, deadlines (`connect-timeout-ms`,
// `grpc-timeout`, bounded by maxTimeoutMs), serialization and its errors, the Connect end-stream message, gRPC
// trailers and the gRPC-Web trailer frame (the protocol packages' own functions), and the interceptor chain, run as
// the in-process transport runs it. A request this handler does not take is passed on to Connect unread, which answers
// it as before: another method or HTTP method, a content type it does not know (gRPC-Web text), or a compressed
// request (`connect-content-encoding`, `grpc-encoding`). Responses are not compressed.
import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";
import type {
  DescMessage,
  DescMethod,
  DescMethodServerStreaming,
  DescMethodUnary,
  DescService,
} from "@bufbuild/protobuf";
import {
  Code,
  ConnectError,
  createContextValues,
  type ContextValues,
  type HandlerContext,
  type Interceptor,
  type MethodImplSpec,
} from "@connectrpc/connect";
import { createMethodSerializationLookup, type MethodSerializationLookup } from "@connectrpc/connect/protocol";
import * as connect from "@connectrpc/connect/protocol-connect";
import * as grpc from "@connectrpc/connect/protocol-grpc";
import * as grpcWeb from "@connectrpc/connect/protocol-grpc-web";
import type { Logger } from "pino";
import { envelope, kHoldCall, responseGone } from "./direct-stream.ts";
import { CALL_OVER } from "../errors.ts";
import { invokeStream, invokeUnary } from "./in-process-transport.ts";
import { kStreamEndObservers, type StreamEndObserver } from "../interceptors/stream-end.ts";
import type { NodeRequestHandler } from "./server.ts";

type NodeRequest = IncomingMessage | Http2ServerRequest;
type NodeResponse = ServerResponse | Http2ServerResponse;
type Protocol = "connect" | "grpc" | "grpc-web";

/** Why a call ends whose caller went away (its connection or stream closed). */
const CALLER_GONE = new ConnectError("the caller went away", Code.Canceled);

/** Why the calls still open end when the host shuts down: the caller should go to another instance. */
const shuttingDown = () => new ConnectError("the server is shutting down", Code.Unavailable);

/** A server stream's request is one message; a larger body is refused before it is read whole. */
export const SERVER_STREAM_REQUEST_MAX_BYTES = 1 << 20;

/** A unary call's message over gRPC, as Connect's handler reads it (its default readMaxBytes). */
const UNARY_REQUEST_MAX_BYTES = 0xffffffff;

export interface ServerStreamsOptions {
  /** The implementations, by `methodKey`; the server-streaming ones are served here. */
  methods: ReadonlyMap<string, MethodImplSpec>;
  /** Server interceptors, outermost first (as given to Connect's adapter). */
  interceptors: readonly Interceptor[];
  /** Context values of a call (the host's direct streams); called with the Node request. */
  contextValues?: (req: NodeRequest) => ContextValues;
  shutdownSignal?: AbortSignal;
  /** The longest deadline a caller may ask for (Connect's maxTimeoutMs). */
  maxTimeoutMs: number;
  /** Where a failure of the handler itself goes (its response is then cut). */
  logger: Pick<Logger, "error">;
  /**
   * Runs before the request body is read, as Connect's `requestGate` does for the other calls: what it throws ends
   * the call unread (the kit's access decision, issue 23 findings 6 and 8).
   */
  requestGate?: (context: HandlerContext) => void | Promise<void>;
}

type Served = ServedStream | ServedUnary;

interface ServedStream {
  spec: MethodImplSpec & { kind: "server_streaming" };
  method: DescMethodServerStreaming;
  serialization: MethodSerializationLookup<DescMessage, DescMessage>;
}

interface ServedUnary {
  spec: MethodImplSpec & { kind: "unary" };
  method: DescMethodUnary;
  serialization: MethodSerializationLookup<DescMessage, DescMessage>;
}

/** The protocol and codec a request asks for by its content type, when this handler takes it. */
function protocolOf(req: NodeRequest): { protocol: Protocol; binary: boolean } | undefined {
  const type = req.headers["content-type"];
  if (typeof type !== "string") return undefined;
  if (type.startsWith("application/connect+")) {
    const parsed = connect.parseContentType(type);
    if (!parsed?.stream || req.headers["connect-content-encoding"] !== undefined) return undefined;
    return { protocol: "connect", binary: parsed.binary };
  }
  const encoding = req.headers["grpc-encoding"];
  if (encoding !== undefined && encoding !== "identity") return undefined;
  if (type.startsWith("application/grpc-web")) {
    const parsed = grpcWeb.parseContentType(type);
    return parsed && !parsed.text ? { protocol: "grpc-web", binary: parsed.binary } : undefined;
  }
  if (type.startsWith("application/grpc")) {
    const parsed = grpc.parseContentType(type);
    return parsed ? { protocol: "grpc", binary: parsed.binary } : undefined;
  }
  return undefined;
}

/** The request's headers as pairs (the call's context makes its Headers of them), without HTTP/2 pseudo-headers. */
function headerPairs(node: IncomingHttpHeaders): [string, string][] {
  const pairs: [string, string][] = [];
  for (const key in node) {
    const value = node[key];
    if (key.startsWith(":") || value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) pairs.push([key, v]);
    else pairs.push([key, value]);
  }
  return pairs;
}

/** What a call that failed answers: its ConnectError, or Internal with the cause kept for the log only. */
function callError(error: unknown): ConnectError {
  return error instanceof ConnectError
    ? error
    : new ConnectError("internal error", Code.Internal, undefined, undefined, error);
}

function mergeHeaders(from: Headers, to: Headers): void {
  if (from !== to) from.forEach((value, key) => to.set(key, value));
}

function nodeHeaders(header: Headers): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  header.forEach((value, key) => {
    out[key] = value;
  });
  return out;
}

/** The request body, whole, up to `max` bytes; undefined (and the request left unread) when it is longer. */
async function readBody(req: NodeRequest, max: number): Promise<Uint8Array | undefined> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > max) return undefined;
    chunks.push(chunk);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length);
}

const kindName = (served: Served) => (served.spec.kind === "unary" ? "unary" : "server-streaming");

/** The request's one message: the body must be exactly one uncompressed envelope. */
function parseRequest(body: Uint8Array, protocol: Protocol, binary: boolean, served: Served): unknown {
  if (body.length === 0) {
    throw new ConnectError(`protocol error: missing input message for ${kindName(served)} method`, Code.Unimplemented);
  }
  if (body.length < 5) throw new ConnectError("protocol error: incomplete envelope", Code.InvalidArgument);
  const flags = body[0]!;
  const length = new DataView(body.buffer, body.byteOffset, 5).getUint32(1);
  if (body.length < 5 + length) {
    throw new ConnectError(
      `protocol error: promised ${length} bytes, received ${body.length - 5}`,
      Code.InvalidArgument,
    );
  }
  if (body.length > 5 + length) {
    throw new ConnectError(
      `protocol error: received extra input message for ${kindName(served)} method`,
      Code.Unimplemented,
    );
  }
  const endFlag = protocol === "connect" ? connect.endStreamFlag : protocol === "grpc-web" ? grpcWeb.trailerFlag : 0;
  if (endFlag !== 0 && (flags & endFlag) === endFlag)
    throw new ConnectError("unexpected end flag", Code.InvalidArgument);
  if ((flags & 0b1) === 0b1) {
    throw new ConnectError("received compressed envelope, but do not know how to decompress", Code.InvalidArgument);
  }
  try {
    return served.serialization.getI(binary).parse(body.subarray(5, 5 + length));
  } catch (err) {
    // Connect calls a body that does not parse Internal; it is the caller's fault (request-faults.ts).
    const e = ConnectError.from(err);
    throw e.code === Code.Internal ? new ConnectError(e.rawMessage, Code.InvalidArgument) : e;
  }
}

/** The response's content type: the request's protocol and codec (a Connect unary call is not served here). */
function contentType(protocol: Protocol, binary: boolean): string {
  if (protocol === "grpc") return binary ? grpc.contentTypeProto : grpc.contentTypeJson;
  if (protocol === "grpc-web") return binary ? grpcWeb.contentTypeProto : grpcWeb.contentTypeJson;
  return binary ? connect.contentTypeStreamProto : connect.contentTypeStreamJson;
}

/** Resolves when the response can take more, or is gone. */
function drained(res: NodeResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.once("drain", done);
    res.once("close", done);
  });
}

/**
 * A call's context, as Connect's createHandlerContext makes one, for calls that stay open for hours by the thousand
 * (and for the unary gRPC calls, which need no more): one AbortController, a timer only for a deadline, and no
 * listener of its own on the host's shutdown signal (the handler aborts its open calls when the host shuts down).
 */
class StreamCall implements HandlerContext {
  readonly service: DescService;
  readonly requestMethod = "POST";
  readonly signal: AbortSignal;
  /** When the deadline is, as Date.now() counts (undefined: none). */
  private readonly deadline: number | undefined;
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly method: DescMethod,
    readonly protocolName: string,
    readonly url: string,
    timeoutMs: number | undefined,
    readonly requestHeader: Headers,
    readonly responseHeader: Headers,
    readonly responseTrailer: Headers,
    readonly values: ContextValues,
  ) {
    this.service = method.parent;
    this.signal = this.controller.signal;
    if (timeoutMs === undefined) return;
    this.deadline = Date.now() + timeoutMs;
    const expire = () => this.abort(new ConnectError("the operation timed out", Code.DeadlineExceeded));
    if (timeoutMs <= 0) expire();
    else this.timer = setTimeout(expire, timeoutMs);
  }

  // An own property, as the interface has it: implementations get a copy of the context (implContext).
  readonly timeoutMs = (): number | undefined => (this.deadline === undefined ? undefined : this.deadline - Date.now());

  abort(reason: unknown): void {
    clearTimeout(this.timer);
    if (!this.signal.aborted) this.controller.abort(reason);
  }
}

/** Reads and parses the request and runs the interceptors and the implementation: the stream's messages. */
async function start(
  req: NodeRequest,
  served: ServedStream,
  protocol: Protocol,
  binary: boolean,
  context: HandlerContext,
  interceptors: readonly Interceptor[],
  requestGate: ServerStreamsOptions["requestGate"],
): Promise<AsyncIterator<unknown>> {
  await requestGate?.(context);
  const body = await readBody(req, SERVER_STREAM_REQUEST_MAX_BYTES);
  if (body === undefined) {
    throw new ConnectError(
      `message size is larger than configured readMaxBytes ${SERVER_STREAM_REQUEST_MAX_BYTES}`,
      Code.ResourceExhausted,
    );
  }
  const input = parseRequest(body, protocol, binary, served);
  const response = await invokeStream(
    served.spec,
    context,
    interceptors,
    (async function* () {
      yield input;
    })(),
  );
  return response.message[Symbol.asyncIterator]();
}

/** Writes each message the implementation yields, the headers before the first, until it returns. */
async function pump(
  messages: AsyncIterator<unknown>,
  res: NodeResponse,
  serializer: { serialize(message: never): Uint8Array },
  context: HandlerContext,
  aborted: Promise<never>,
): Promise<void> {
  for (;;) {
    const step = await Promise.race([messages.next(), aborted]);
    if (step.done) return;
    if (!res.headersSent) (res as ServerResponse).writeHead(200, nodeHeaders(context.responseHeader));
    if (responseGone(res)) throw CALLER_GONE;
    if (!(res as ServerResponse).write(envelope(serializer.serialize(step.value as never)))) await drained(res);
  }
}

/**
 * Wraps a host's Node handler: server-streaming calls of `methods` that arrive in a form this handler takes, and
 * unary calls over gRPC, are served here; every other request goes to `next`.
 */
export function serveServerStreams(opts: ServerStreamsOptions, next: NodeRequestHandler): NodeRequestHandler {
  const served = new Map<string, Served>();
  for (const spec of opts.methods.values()) {
    if (spec.kind !== "server_streaming" && spec.kind !== "unary") continue;
    const method = spec.method;
    served.set(`/${method.parent.typeName}/${method.name}`, {
      spec,
      method,
      serialization: createMethodSerializationLookup(method, undefined, undefined, {
        readMaxBytes: spec.kind === "unary" ? UNARY_REQUEST_MAX_BYTES : SERVER_STREAM_REQUEST_MAX_BYTES,
        writeMaxBytes: 0xffffffff,
      }),
    } as Served);
  }
  // The open calls, aborted together when the host shuts down (one listener for all of them).
  const open = new Set<StreamCall>();
  opts.shutdownSignal?.addEventListener(
    "abort",
    () => {
      for (const call of open) call.abort(shuttingDown());
    },
    { once: true },
  );
  const endStream = connect.createEndStreamSerialization(undefined);
  const trailers = grpcWeb.createTrailerSerialization();

  return (req, res) => {
    const target = req.method === "POST" ? served.get(req.url ?? "") : undefined;
    const wire = target && protocolOf(req);
    if (!target || !wire || (target.spec.kind === "unary" && wire.protocol !== "grpc")) {
      next(req, res);
      return;
    }
    const call =
      target.spec.kind === "unary"
        ? serveUnary(req, res, target as ServedUnary, wire.binary)
        : serve(req, res, target as ServedStream, wire.protocol, wire.binary);
    call.catch((err: unknown) => {
      opts.logger.error({ err, path: req.url }, "the kit's call handler failed");
      res.destroy();
    });
  };

  /**
   * A call's context as the request gives it (address, headers, deadline: an unreadable deadline is `timeoutError`,
   * for the call to answer), open until `close()`: until then the caller going away or the host's shutdown ends it.
   */
  function openCall(req: NodeRequest, res: NodeResponse, served: Served, protocol: Protocol, binary: boolean) {
    const timeout =
      protocol === "connect"
        ? connect.parseTimeout((req.headers["connect-timeout-ms"] as string | undefined) ?? null, opts.maxTimeoutMs)
        : grpc.parseTimeout((req.headers["grpc-timeout"] as string | undefined) ?? null, opts.maxTimeoutMs);
    const authority = "authority" in req ? req.authority : req.headers.host;
    const context = new StreamCall(
      served.method,
      protocol,
      `http://${authority ?? "localhost"}${req.url ?? ""}`,
      timeout.timeoutMs,
      new Headers(headerPairs(req.headers)),
      new Headers({ "content-type": contentType(protocol, binary) }),
      new Headers(protocol === "connect" ? undefined : { [grpc.headerGrpcStatus]: grpc.grpcStatusOk }),
      opts.contextValues?.(req) ?? createContextValues(),
    );
    open.add(context);
    // A caller that goes away ends the call (its signal), as Connect's adapter does.
    const onClose = () => {
      if (!res.writableEnded) context.abort(CALLER_GONE);
    };
    res.once("close", onClose);
    return {
      context,
      timeoutError: timeout.error,
      close() {
        context.abort(CALL_OVER);
        open.delete(context);
        res.off("close", onClose);
      },
    };
  }

  /** A unary call over gRPC: one message in, one message (or the error) and the trailers out. */
  async function serveUnary(req: NodeRequest, res: NodeResponse, served: ServedUnary, binary: boolean) {
    const { context, timeoutError, close } = openCall(req, res, served, "grpc", binary);
    let output: Uint8Array | undefined;
    let error: unknown;
    try {
      if (timeoutError) throw timeoutError;
      await opts.requestGate?.(context);
      const body = await readBody(req, UNARY_REQUEST_MAX_BYTES);
      if (body === undefined) {
        throw new ConnectError(
          `message size is larger than configured readMaxBytes ${UNARY_REQUEST_MAX_BYTES}`,
          Code.ResourceExhausted,
        );
      }
      const input = parseRequest(body, "grpc", binary, served);
      const response = await invokeUnary(served.spec, context, opts.interceptors, input);
      // Headers an interceptor answered with in objects of its own, as Connect's handler takes them.
      mergeHeaders(response.header, context.responseHeader);
      mergeHeaders(response.trailer, context.responseTrailer);
      output = served.serialization.getO(binary).serialize(response.message);
    } catch (err) {
      error = err;
    } finally {
      close();
    }
    if (responseGone(res)) return;
    if (error !== undefined) grpc.setTrailerStatus(context.responseTrailer, callError(error));
    (res as ServerResponse).writeHead(200, nodeHeaders(context.responseHeader));
    res.addTrailers(nodeHeaders(context.responseTrailer));
    if (output === undefined) res.end();
    else res.end(envelope(output));
  }

  async function serve(req: NodeRequest, res: NodeResponse, served: ServedStream, protocol: Protocol, binary: boolean) {
    const { context, timeoutError, close } = openCall(req, res, served, protocol, binary);
    // What the call's context offers the interceptors (stream-end observers) and the implementation (holding the
    // call open after it returns: direct-stream.ts).
    let observers: StreamEndObserver[] | undefined;
    let held: { onEnd: () => void; ended: boolean; release?: () => void } | undefined;
    context.values.set(kStreamEndObservers, (observer) => (observers ??= []).push(observer));
    context.values.set(kHoldCall, (onEnd) => {
      const hold: NonNullable<typeof held> = { onEnd, ended: false };
      held = hold;
      return {
        end() {
          hold.ended = true;
          hold.release?.();
        },
      };
    });

    let iterator: AsyncIterator<unknown> | undefined;
    let raised: { error: unknown } | undefined;
    try {
      if (timeoutError) throw timeoutError;
      // The call's end (the caller went away, its deadline, shutdown) ends the stream even when the implementation
      // waits for something else.
      const aborted = new Promise<never>((_, reject) => {
        const onAbort = () => reject(context.signal.reason);
        if (context.signal.aborted) onAbort();
        else context.signal.addEventListener("abort", onAbort, { once: true });
      });
      aborted.catch(() => undefined);
      // Started in a function of its own: what only the start needs (the body, the request, the interceptor chain)
      // is not kept for as long as the stream lasts.
      iterator = await start(req, served, protocol, binary, context, opts.interceptors, opts.requestGate);
      await pump(iterator, res, served.serialization.getO(binary), context, aborted);
      iterator = undefined;
      // Held: the implementation returned and keeps writing directly until it ends the call or the call ends.
      const hold = held;
      if (hold && !hold.ended) await Promise.race([new Promise<void>((resolve) => (hold.release = resolve)), aborted]);
    } catch (err) {
      raised = { error: err };
    } finally {
      close();
      void iterator?.return?.().catch(() => undefined);
    }
    // A stream whose caller went away ended as with Connect's handler: its implementation saw its signal and
    // stopped, nobody gets an error.
    let error = raised?.error === CALLER_GONE ? undefined : raised?.error;
    for (const observer of observers ?? []) {
      if (error !== undefined) error = observer.mapError(error);
      observer.end(error);
    }
    held?.onEnd();
    const failure = error === undefined ? undefined : callError(error);
    if (responseGone(res)) return;
    if (!res.headersSent) (res as ServerResponse).writeHead(200, nodeHeaders(context.responseHeader));
    if (protocol === "connect") {
      res.end(
        envelope(endStream.serialize({ metadata: context.responseTrailer, error: failure }), connect.endStreamFlag),
      );
      return;
    }
    if (failure) grpc.setTrailerStatus(context.responseTrailer, failure);
    if (protocol === "grpc-web") {
      res.end(envelope(trailers.serialize(context.responseTrailer), grpcWeb.trailerFlag));
      return;
    }
    res.addTrailers(nodeHeaders(context.responseTrailer));
    res.end();
  }
}
