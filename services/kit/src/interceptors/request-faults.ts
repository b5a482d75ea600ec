// A request whose body cannot be decoded is the caller's fault: invalid_argument (HTTP 400 on the Connect
// protocol, grpc-status 3), never internal (issue 9 defect 2). Connect's handlers report a protobuf body
// that does not parse ("parse binary: premature EOF") and a compressed message they cannot inflate as
// Internal, for every protocol; JSON, envelope and size problems already come out as the caller's fault.
//
// Two places see those errors, and both are covered here:
// - A unary call decodes its request before any interceptor runs. The request gate (run first, with the
//   call's HandlerContext) wraps the context's `abort`, which Connect calls with the error just before it
//   serialises the answer, so an Internal error that ends the call before the interceptors started is
//   re-coded there.
// - Streaming calls decode their messages while the implementation reads them. The interceptor (outermost)
//   marks the call as started and maps what the request's message stream throws.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";
import { base64Decode } from "@bufbuild/protobuf/wire";
import { Code, ConnectError, createContextKey, type HandlerContext, type Interceptor } from "@connectrpc/connect";
import type { TokenVerifier } from "../auth/verifier.ts";
import { CALL_OVER } from "../errors.ts";
import { authorizeCall } from "./access.ts";

/** Set once the interceptor chain runs: from then on, an Internal error is the server's own. */
const kChainStarted = createContextKey(false, { description: "interceptor chain started" });

/** An error raised while the request was read and decoded, as the caller should see it. */
function asRequestFault(err: unknown): unknown {
  if (err instanceof ConnectError) {
    return err.code === Code.Internal && !err.isWireError
      ? new ConnectError(err.rawMessage, Code.InvalidArgument, err.metadata, undefined, err)
      : err;
  }
  // An aborted read stays Canceled; anything else that broke the request's body is the request's problem.
  return ConnectError.from(err, Code.InvalidArgument);
}

async function* requestMessages<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
  try {
    yield* source;
  } catch (err) {
    throw asRequestFault(err);
  }
}

/**
 * Outermost interceptor of the kit's chain: marks the call as started (see `requestFaultGate`) and turns a
 * streaming request message that cannot be decoded into invalid_argument.
 */
export function createRequestFaultInterceptor(): Interceptor {
  return (next) => async (req) => {
    req.contextValues.set(kChainStarted, true);
    if (!req.stream) return next(req);
    return next({ ...req, message: requestMessages(req.message) });
  };
}

/**
 * Connect's `requestGate` for the kit's handlers: an Internal error that ends a call before its interceptors
 * ran came from decoding the request, so it is re-coded as invalid_argument. Whatever ends a call, Connect
 * hands the error to the call context's `abort` and then serialises that same object, in every protocol (also
 * when the context was already aborted: a timeout of 0, a deadline that passed while the body arrived), so the
 * gate wraps `abort` and re-codes the error there; host-malformed-input.test holds each protocol to it.
 */
export function requestFaultGate(context: HandlerContext): void {
  // The context Connect's handlers create has `abort`; the public type leaves it out.
  const call = context as HandlerContext & { abort?: (reason?: unknown) => void };
  const abort = call.abort?.bind(call);
  if (!abort) return;
  call.abort = (reason?: unknown) => {
    if (
      !context.values.get(kChainStarted) &&
      reason instanceof ConnectError &&
      reason.code === Code.Internal &&
      !reason.isWireError
    ) {
      const recoded = new ConnectError(reason.rawMessage, Code.InvalidArgument);
      Object.assign(reason, { code: recoded.code, message: recoded.message });
    }
    // Connect calls abort() without a reason once a unary call is answered: the shared reason spares the
    // DOMException Node would make (see CALL_OVER).
    abort(reason ?? CALL_OVER);
  };
}

/**
 * The kit's request gate: `requestFaultGate`, then the access decision, both before Connect reads the body
 * (issue 23 findings 6 and 8). A caller who may not call is refused without its body being read, received or
 * decoded, so it learns nothing of the input rules and cannot make a service hold its bytes; the access
 * interceptor still decides for the transports that have no gate (in process).
 */
export function createRequestGate(opts: { verifier: TokenVerifier }): (context: HandlerContext) => Promise<void> {
  return async (context) => {
    requestFaultGate(context);
    await authorizeCall(context.method, context.requestHeader, opts.verifier);
  };
}

/** The longest delay a Node timer holds (config.ts MAX_TIMER_MS); Connect's handlers get it as maxTimeoutMs. */
const MAX_DEADLINE_MS = 2 ** 31 - 1;
const GRPC_TIMEOUT_UNIT_MS: Record<string, number> = { H: 3_600_000, M: 60_000, S: 1000, m: 1, u: 1e-3, n: 1e-6 };

/**
 * A deadline longer than a Node timer holds is refused by Connect (maxTimeoutMs: invalid_argument, 400 on the
 * Connect protocol), but Connect arms the call's timer with it first: Node warns (TimeoutOverflowWarning, e.g.
 * "359999996400000 does not fit", from `grpc-timeout: 99999999H`) and cuts it to 1 ms. Such a header is replaced by
 * one Connect's parser refuses outright, naming the limit, so the same refusal comes without any timer.
 */
export function markOverlongDeadline(headers: Record<string, string | string[] | undefined>): void {
  const grpc = headers["grpc-timeout"];
  const grpcMatch = typeof grpc === "string" ? /^(\d{1,8})([HMSmun])$/.exec(grpc) : null;
  if (grpcMatch && Number(grpcMatch[1]) * GRPC_TIMEOUT_UNIT_MS[grpcMatch[2]!]! > MAX_DEADLINE_MS) {
    headers["grpc-timeout"] = `${grpc as string} is longer than ${MAX_DEADLINE_MS} ms`;
  }
  const connect = headers["connect-timeout-ms"];
  if (typeof connect === "string" && /^\d{1,10}$/.test(connect) && Number(connect) > MAX_DEADLINE_MS) {
    headers["connect-timeout-ms"] = `${connect} is longer than ${MAX_DEADLINE_MS} ms`;
  }
}

type NodeHandler = (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse) => void;

/**
 * A Connect GET (`?encoding=proto&base64=1&message=…`) whose message is not base64 makes Connect's handler throw a
 * plain Error before any gate or interceptor, which it answers as 500 "internal error" (found by the fuzz
 * campaign). Such a request is refused here as Connect itself refuses a malformed message: 400 invalid_argument.
 */
export function refuseUndecodableGetMessages(handler: NodeHandler): NodeHandler {
  return (req, res) => {
    markOverlongDeadline(req.headers);
    if (req.method === "GET" && req.url?.includes("base64=1")) {
      const query = new URLSearchParams(req.url.slice(req.url.indexOf("?") + 1));
      if (query.get("base64") === "1") {
        try {
          base64Decode(query.get("message") ?? "");
        } catch {
          const body = JSON.stringify({ code: "invalid_argument", message: "message: invalid base64" });
          (res as ServerResponse).writeHead(400, { "content-type": "application/json" });
          res.end(body);
          return;
        }
      }
    }
    handler(req, res);
  };
}
