// A Transport that calls registered implementations directly: no serialisation, no HTTP, no envelopes,
// yet the very same interceptor chain with a real HandlerContext, so it refuses exactly what the network
// path refuses. The gateway uses it in all-in-one mode, where the router transport's encode/decode round
// trip would cost most of the request time.
import { create, isMessage, type DescMessage, type DescMethod, type MessageShape } from "@bufbuild/protobuf";
import {
  Code,
  ConnectError,
  createContextValues,
  createHandlerContext,
  type ContextValues,
  type HandlerContext,
  type Interceptor,
  type MethodImplSpec,
  type StreamRequest,
  type StreamResponse,
  type Transport,
  type UnaryRequest,
  type UnaryResponse,
} from "@connectrpc/connect";
import { kLogger } from "../context.ts";
import { CALL_OVER } from "../errors.ts";
import { methodKey } from "./route-capture.ts";

export interface InProcessTransportOptions {
  /** The implementations, by `methodKey`. */
  methods: ReadonlyMap<string, MethodImplSpec>;
  /** Server interceptors, outermost first (as given to the router). */
  interceptors: Interceptor[];
  /** Aborts every running call (host shutdown), like the HTTP handler's shutdown signal. */
  shutdownSignal?: AbortSignal;
}

export const IN_PROCESS_PROTOCOL = "in-process";

const BASE_URL = "http://in-process";

type AnyFn = (req: UnaryRequest | StreamRequest) => Promise<UnaryResponse | StreamResponse>;

function chain(fn: AnyFn, interceptors: readonly Interceptor[]): AnyFn {
  // The first interceptor is the outermost, as in Connect's own applyInterceptors.
  return interceptors.reduceRight<AnyFn>((next, interceptor) => interceptor(next), fn);
}

function toMessage<D extends DescMessage>(desc: D, value: unknown): MessageShape<D> {
  return isMessage(value, desc) ? value : create(desc, value as never);
}

async function single<T>(messages: AsyncIterable<T>): Promise<T> {
  let first: { value: T } | undefined;
  for await (const value of messages) {
    if (first) throw new ConnectError("protocol error: received extra input message", Code.InvalidArgument);
    first = { value };
  }
  if (!first) throw new ConnectError("protocol error: missing input message", Code.InvalidArgument);
  return first.value;
}

async function* mapIterable<T, U>(source: AsyncIterable<T>, fn: (value: T) => U): AsyncIterable<U> {
  for await (const value of source) yield fn(value);
}

/** What the implementation sees as its context: the call's, with what interceptors changed applied. */
function implContext(context: HandlerContext, req: UnaryRequest | StreamRequest): HandlerContext {
  return { ...context, service: req.service, requestHeader: req.header, signal: req.signal, values: req.contextValues };
}

/** The request interceptors get for a call with this context. */
function requestOf(context: HandlerContext) {
  return {
    service: context.service,
    requestMethod: context.requestMethod,
    url: context.url,
    signal: context.signal,
    header: context.requestHeader,
    contextValues: context.values,
  };
}

/**
 * Runs a streaming implementation through the interceptors, with the call's context and its input messages: the
 * response, whose messages are the implementation's as messages of the method's output. The in-process transport and
 * the kit's server-stream handler (server-streams.ts) both call it.
 */
export async function invokeStream(
  spec: MethodImplSpec,
  context: HandlerContext,
  interceptors: readonly Interceptor[],
  input: AsyncIterable<unknown>,
): Promise<StreamResponse> {
  const method = spec.method;
  const respond = (message: AsyncIterable<unknown>): StreamResponse => ({
    stream: true,
    service: method.parent,
    method: method as never,
    header: context.responseHeader,
    trailer: context.responseTrailer,
    message: mapIterable(message, (m) => toMessage(method.output, m)),
  });
  const next = chain(async (req) => {
    if (!req.stream) throw new ConnectError("protocol error: expected a streaming request", Code.Internal);
    const ctx = implContext(context, req);
    switch (spec.kind) {
      case "server_streaming":
        return respond(spec.impl(await single(req.message), ctx));
      case "client_streaming":
        return respond([await spec.impl(req.message, ctx)].values() as never);
      case "bidi_streaming":
        return respond(spec.impl(req.message, ctx));
      default:
        throw new ConnectError(`${methodKey(method)} is not streaming`, Code.Unimplemented);
    }
  }, interceptors);
  const res = await next({ ...requestOf(context), stream: true, method: method as never, message: input as never });
  if (!res.stream) throw new ConnectError("protocol error: expected a stream response", Code.Internal);
  return res;
}

/**
 * Runs a unary implementation through the interceptors, with the call's context and its input message: the response,
 * its message one of the method's output. A deadline or shutdown (the context's signal) ends the call even when the
 * implementation ignores its signal. The in-process transport and the kit's gRPC unary handler (server-streams.ts)
 * both call it.
 */
export async function invokeUnary(
  spec: MethodImplSpec & { kind: "unary" },
  context: HandlerContext,
  interceptors: readonly Interceptor[],
  input: unknown,
): Promise<UnaryResponse> {
  const { method, impl } = spec;
  const next = chain(async (req) => {
    if (req.stream) throw new ConnectError("protocol error: expected a unary request", Code.Internal);
    // Racing the signal makes deadlines and shutdown end the call even when the handler ignores them.
    const output = await untilAborted(
      req.signal,
      () => impl(req.message, implContext(context, req)),
      // Nobody gets this outcome any more; an unexpected failure must still reach the log.
      (err) => {
        if (!(err instanceof ConnectError)) {
          req.contextValues.get(kLogger)?.error({ err }, "handler failed after its call was over");
        }
      },
    );
    return {
      stream: false,
      service: method.parent,
      method,
      header: context.responseHeader,
      trailer: context.responseTrailer,
      message: toMessage(method.output, output),
    };
  }, interceptors);
  const res = await next({ ...requestOf(context), stream: false, method, message: input as never });
  if (res.stream) throw new ConnectError("protocol error: expected a unary response", Code.Internal);
  return res;
}

export function createInProcessTransport(opts: InProcessTransportOptions): Transport {
  const lookup = (method: DescMethod): MethodImplSpec => {
    const spec = opts.methods.get(methodKey(method));
    if (!spec) throw new ConnectError(`${methodKey(method)} is not served in this process`, Code.Unimplemented);
    return spec;
  };

  const startCall = (
    method: DescMethod,
    signal: AbortSignal | undefined,
    timeoutMs: number | undefined,
    header: HeadersInit | undefined,
    contextValues: ContextValues | undefined,
  ) =>
    createHandlerContext({
      service: method.parent,
      method,
      protocolName: IN_PROCESS_PROTOCOL,
      requestMethod: "POST",
      url: `${BASE_URL}/${methodKey(method)}`,
      timeoutMs,
      requestSignal: signal,
      shutdownSignal: opts.shutdownSignal,
      requestHeader: header,
      contextValues: contextValues ?? createContextValues(),
    });

  return {
    async unary(method, signal, timeoutMs, header, input, contextValues) {
      const spec = lookup(method);
      const context = startCall(method, signal, timeoutMs, header, contextValues);
      try {
        if (spec.kind !== "unary") throw new ConnectError(`${methodKey(method)} is not unary`, Code.Unimplemented);
        const res = await invokeUnary(spec, context, opts.interceptors, toMessage(method.input, input));
        return res as unknown as UnaryResponse<never, never>;
      } catch (err) {
        throw ConnectError.from(err);
      } finally {
        context.abort(CALL_OVER);
      }
    },

    async stream(method, signal, timeoutMs, header, input, contextValues) {
      const spec = lookup(method);
      const context = startCall(method, signal, timeoutMs, header, contextValues);
      let res;
      try {
        res = await invokeStream(
          spec,
          context,
          opts.interceptors,
          mapIterable(input, (m) => toMessage(method.input, m)),
        );
      } catch (err) {
        context.abort();
        throw ConnectError.from(err);
      }
      const messages = res.message;
      return {
        ...res,
        message: (async function* () {
          try {
            for await (const m of messages) {
              if (context.signal.aborted) throw ConnectError.from(context.signal.reason);
              yield m;
            }
          } catch (err) {
            throw ConnectError.from(err);
          } finally {
            context.abort(CALL_OVER);
          }
        })(),
      } as unknown as StreamResponse<never, never>;
    },
  };
}

/**
 * Runs `start` and settles with its outcome, or with the abort of `signal` when that comes first. Nothing is
 * started once the signal is aborted, and work that loses the race keeps a rejection handler, which hands its
 * failure to `onLateFailure`: a handler that fails after its caller went away (a closed connection) must not
 * become an unhandled rejection, which would end the process (issue 9 defect 1).
 */
function untilAborted<T>(
  signal: AbortSignal,
  start: () => T | Promise<T>,
  onLateFailure: (err: unknown) => void,
): Promise<T> {
  if (signal.aborted) return Promise.reject(ConnectError.from(signal.reason));
  return new Promise<T>((resolve, reject) => {
    let lost = false;
    const onAbort = () => {
      lost = true;
      reject(ConnectError.from(signal.reason));
    };
    signal.addEventListener("abort", onAbort, { once: true });
    const settle = () => signal.removeEventListener("abort", onAbort);
    // The executor turns a synchronous throw of `start` into a rejection; the handlers below always exist.
    new Promise<T>((run) => run(start())).then(
      (value) => {
        settle();
        resolve(value);
      },
      (err: unknown) => {
        settle();
        if (lost) onLateFailure(err);
        else reject(err);
      },
    );
  });
}
