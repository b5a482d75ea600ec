// Puts the stages together: CORS → /openapi.json → Connect passthrough → match → bind → invoke → respond,
// with every failure turned into the REST error body. Everything that can be prepared is prepared in
// createGateway, so the per-request path is a trie walk, one fromJson and one toJson.
import type { IncomingMessage, ServerResponse } from "node:http";
import { constants as http2Constants, type Http2ServerRequest, type Http2ServerResponse } from "node:http2";
import {
  create,
  createRegistry,
  type DescFile,
  type DescMethod,
  type DescMethodServerStreaming,
  type DescMethodUnary,
  type DescService,
  type Message,
  type Registry,
} from "@bufbuild/protobuf";
import { Code, ConnectError, type Transport } from "@connectrpc/connect";
import { runWithRequestId, type ReplicaSet } from "@tt/kit";
import type { Logger } from "pino";
import { BindError, type Binding, type FormBody } from "./bind.ts";
import { createBodyBudget, DEFAULT_MAX_BODY_BYTES_IN_FLIGHT, type BodyLease } from "./body-budget.ts";
import {
  createConnectPassthrough,
  type ConnectTarget,
  type NodeRequest,
  type NodeResponse,
} from "./connect-passthrough.ts";
import { createCors, type CorsOptions } from "./cors.ts";
import { toRestError } from "./errors.ts";
import { createHeaderPolicy, forwardRequestHeaders, forwardResponseHeaders, requestIdOf } from "./headers.ts";
import { invokeServerStream, invokeUnary, unsupportedMethodKind } from "./invoke.ts";
import type { RouteMatch } from "./match.ts";
import { MULTIPART_TYPE, readMultipart } from "./multipart.ts";
import { buildOpenApi } from "./openapi.ts";
import { buildRouteTable, type Route, type RouteTable } from "./routes.ts";
import { apiSecurityHeaders } from "./security-headers.ts";

export interface GatewayBackend {
  /** The proto services this backend serves. */
  services: DescService[];
  /**
   * Used for REST calls: in process (all-in-one) or, distributed, Connect over HTTP/2 (gRPC with
   * BACKEND_PROTOCOL=grpc).
   */
  transport: Transport;
  /**
   * Where Connect, gRPC and gRPC-Web requests for these services go: a handler in process, the service's one base
   * URL, or its replicas (several URLs, each call to the next one that can be reached: connect-passthrough.ts).
   */
  connect:
    | { handler: (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse) => void }
    | { baseUrl: string }
    | { replicas: ReplicaSet };
}

export interface GatewayOptions {
  backends: GatewayBackend[];
  /** Largest accepted request body; larger ones get a 413. */
  bodyLimitBytes?: number;
  /**
   * Largest accepted multipart/form-data body (file uploads: a 10-minute high-quality song is about 25 MB),
   * for the rules that take one; larger ones get a 413. Default DEFAULT_MULTIPART_BODY_LIMIT_BYTES.
   */
  multipartBodyLimitBytes?: number;
  /**
   * How long a proxied Connect session to a service may sit idle before the gateway closes it: shorter than the
   * services' IDLE_TIMEOUT_MS (see connect-passthrough.ts). Default 60 s.
   */
  idleBackendSessionMs?: number;
  cors?: CorsOptions;
  logger?: Logger;
  /** Serves the frontends; returns true when it answered. Asked only for paths no rule knows. */
  staticHandler?: (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse) => boolean;
  /** Header allow-lists (defaults in headers.ts) and whether to trust the caller's x-forwarded-for. */
  headers?: { request?: readonly string[]; response?: readonly string[]; trustForwardedFor?: boolean };
  /**
   * The access decision of a REST call (the method's `tt.options.v1.access` against the caller's token: the kit's
   * createEdgeAccessCheck), made from the method and the forwarded headers before the body is read or any input is
   * decoded (issue 23 findings 6 and 8). Throws the refusal. Without it, the service alone decides, after both.
   */
  authorize?: (method: DescMethod, header: Headers) => Promise<void>;
  /**
   * Request-body bytes held at once across every REST call (MAX_BODY_BYTES_IN_FLIGHT); a body that would exceed it
   * is refused with 503 and retry-after. Default DEFAULT_MAX_BODY_BYTES_IN_FLIGHT (256 MiB).
   */
  maxBodyBytesInFlight?: number;
  /**
   * When the gateway answers before it has read a body (a refusal, a 413), it reads and drops up to this many more
   * bytes of it before it closes the connection, so a client that is still sending reads the answer instead of a
   * reset (issue 23 finding 9). Default DEFAULT_REFUSED_BODY_DRAIN_BYTES (64 MiB).
   */
  refusedBodyDrainBytes?: number;
}

export interface Gateway {
  handler(req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse): void;
  routes: RouteTable;
  openapi: object;
  /** Closes the HTTP/2 sessions of proxied Connect backends. */
  close(): void;
  /** Request-body bytes the gateway holds right now (see maxBodyBytesInFlight). */
  bodyBytesInFlight(): number;
}

export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;
export const DEFAULT_MULTIPART_BODY_LIMIT_BYTES = 32 * 1024 * 1024;
export const DEFAULT_REFUSED_BODY_DRAIN_BYTES = 64 * 1024 * 1024;
export const OPENAPI_PATH = "/openapi.json";

// JSON media types, plus text/plain because fetch() labels a string body that way by default. Accepting it
// opens no CSRF hole: a cross-site "simple" request cannot carry the Authorization header.
const JSON_TYPE = /^(?:application\/(?:[\w.+-]*\+)?json|text\/plain)\b/i;

/** A registry of every file the services need, dependencies included: it resolves `Any` in JSON. */
export function registryOf(services: DescService[]): Registry {
  const seen = new Set<DescFile>();
  const visit = (f: DescFile) => {
    if (seen.has(f)) return;
    seen.add(f);
    f.dependencies.forEach(visit);
  };
  services.forEach((s) => visit(s.file));
  return createRegistry(...seen);
}

function readBody(req: NodeRequest, limit: number, lease: BodyLease): Promise<string> {
  const declared = Number(req.headers["content-length"]);
  if (declared > limit) return Promise.reject(new BindError(`request body larger than ${limit} bytes`, 413));
  try {
    if (declared > 0) lease.hold(declared);
  } catch (err) {
    return Promise.reject(err as Error);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      let refusal: unknown;
      if (size > limit) refusal = new BindError(`request body larger than ${limit} bytes`, 413);
      else {
        try {
          lease.hold(size);
        } catch (err) {
          refusal = err;
        }
      }
      if (refusal !== undefined) {
        req.off("data", onData);
        req.pause(); // what is left is dropped (or the connection closed) once the answer is out: see settleUnreadBody
        reject(refusal as Error);
        return;
      }
      chunks.push(chunk);
    };
    req.on("data", onData);
    req.once("end", () => resolve(Buffer.concat(chunks, size).toString("utf8")));
    // The client went away mid-body (ECONNRESET) or the server cut it off: Canceled, nobody's fault of ours.
    req.once("error", (err) =>
      reject(new ConnectError("the request body was not received in full", Code.Canceled, undefined, undefined, err)),
    );
  });
}

/**
 * An answer goes out while the rest of the request body is still on the wire (a refusal before the body was read,
 * a 413 part-way). HTTP/2 ends the stream with NO_ERROR once the answer is out (RFC 9113 §8.1). HTTP/1.1 cannot
 * close at once: a client still sending would get a reset (EPIPE) instead of the answer (issue 23 finding 9). So the
 * rest is read and dropped, up to `drainLimit` bytes, and the connection then stays usable; a body declared longer
 * than that is answered with `connection: close`, and one that turns out longer is cut off when it passes it.
 */
function settleUnreadBody(
  req: NodeRequest,
  res: NodeResponse,
  headers: Record<string, string>,
  drainLimit: number,
): void {
  if (req.complete) return;
  if (req.httpVersionMajor !== 1) {
    const stream = (req as Http2ServerRequest).stream;
    res.once("finish", () => stream.close(http2Constants.NGHTTP2_NO_ERROR));
    return;
  }
  const declared = Number(req.headers["content-length"]);
  if (declared > drainLimit) {
    headers.connection = "close";
    return;
  }
  let dropped = 0;
  req.on("data", (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > drainLimit) req.socket.destroy();
  });
  req.resume();
}

function readForm(
  req: NodeRequest,
  type: string,
  limit: number,
  binding: Binding,
  lease: BodyLease,
): Promise<FormBody> {
  return readMultipart(req, type, {
    limit,
    checkPart: (name, isFile) => binding.checkFormPart(name, isFile),
    hold: (total) => lease.hold(total),
  });
}

export function createGateway(opts: GatewayOptions): Gateway {
  const { backends, logger } = opts;
  const limit = opts.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  const formLimit = opts.multipartBodyLimitBytes ?? DEFAULT_MULTIPART_BODY_LIMIT_BYTES;
  const budget = createBodyBudget(opts.maxBodyBytesInFlight ?? DEFAULT_MAX_BODY_BYTES_IN_FLIGHT);
  const drainLimit = opts.refusedBodyDrainBytes ?? DEFAULT_REFUSED_BODY_DRAIN_BYTES;
  const registry = registryOf(backends.flatMap((b) => b.services));
  const routes = buildRouteTable(backends, registry);
  const openapi = buildOpenApi(routes.routes);
  const openapiText = JSON.stringify(openapi);
  const policy = createHeaderPolicy(opts.headers);
  const customMethods = [...new Set(routes.routes.map((r) => r.httpMethod))];
  const cors = opts.cors ? createCors(opts.cors, customMethods) : undefined;
  const passthrough = createConnectPassthrough(
    backends.map((b) => ({ services: b.services, connect: b.connect as ConnectTarget })),
    policy,
    logger,
    opts.idleBackendSessionMs,
  );

  const sendError = (
    req: NodeRequest,
    res: NodeResponse,
    err: unknown,
    requestId: string,
    extra: Record<string, string>,
  ) => {
    const rest = toRestError(err);
    if (rest.internal) logger?.error({ err, requestId, url: req.url }, "REST call failed");
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const headers: Record<string, string> = {
      ...extra,
      // A refusal can say when to come back (retry-after on a 429): the same allow-list as on success.
      ...(err instanceof ConnectError ? forwardResponseHeaders(policy, err.metadata) : {}),
      ...rest.headers,
      "content-type": "application/json; charset=utf-8",
      "x-request-id": requestId,
    };
    settleUnreadBody(req, res, headers, drainLimit);
    const body = JSON.stringify(rest.body);
    headers["content-length"] = String(Buffer.byteLength(body));
    (res as ServerResponse).writeHead(rest.status, headers);
    res.end(body);
  };

  const serveRest = async (
    req: NodeRequest,
    res: NodeResponse,
    match: RouteMatch<Route>,
    query: string,
    requestId: string,
    extra: Record<string, string>,
  ): Promise<void> => {
    const route = match.value;
    const header = forwardRequestHeaders(policy, req.headers, req.socket?.remoteAddress, requestId);
    // Who may call, before a byte of the body is read or any input decoded (issue 23 findings 6 and 8).
    if (opts.authorize) await opts.authorize(route.method, header);
    // A right the token does not carry (a capability) is asked of the service itself, still before the body.
    if (route.precheck) {
      const check = route.precheck;
      await invokeUnary(backends[route.backend]!.transport, check, create(check.input), header, undefined);
    }
    const lease = budget.lease();
    try {
      await callRest(req, res, route, match, query, requestId, extra, header, lease);
    } finally {
      lease.release();
    }
  };

  const callRest = async (
    req: NodeRequest,
    res: NodeResponse,
    route: Route,
    match: RouteMatch<Route>,
    query: string,
    requestId: string,
    extra: Record<string, string>,
    header: Headers,
    lease: BodyLease,
  ): Promise<void> => {
    const binding = route.binding;
    let input: Message;
    if (!binding.hasBody) {
      input = binding.bind(match.variables, query, undefined);
    } else {
      const type = req.headers["content-type"];
      if (binding.rawBody) {
        input = binding.bind(match.variables, query, await readBody(req, limit, lease), type);
      } else if (type === undefined || JSON_TYPE.test(type)) {
        input = binding.bind(match.variables, query, await readBody(req, limit, lease));
      } else if (binding.acceptsForm && MULTIPART_TYPE.test(type)) {
        input = binding.bindForm(match.variables, query, await readForm(req, type, formLimit, binding, lease));
      } else {
        const accepted = binding.acceptsForm ? "application/json or multipart/form-data" : "application/json";
        throw new BindError(`unsupported content-type "${type}"; send ${accepted}`, 415);
      }
    }
    const abort = new AbortController();
    res.once("close", () => {
      if (!res.writableFinished) abort.abort();
    });
    const transport = backends[route.backend]!.transport;
    const method = route.method;

    if (method.methodKind === "unary") {
      const result = await invokeUnary(transport, method as DescMethodUnary, input, header, abort.signal);
      if (route.raw) {
        const raw = route.raw(result.message);
        (res as ServerResponse).writeHead(200, {
          ...extra,
          ...forwardResponseHeaders(policy, result.header, result.trailer),
          "content-type": raw.contentType,
          "content-length": String(raw.data.byteLength),
          "x-request-id": requestId,
        });
        res.end(raw.data);
        return;
      }
      const text = route.render(result.message);
      (res as ServerResponse).writeHead(200, {
        ...extra,
        ...forwardResponseHeaders(policy, result.header, result.trailer),
        "content-type": "application/json; charset=utf-8",
        // With its length given, HTTP/1.1 sends the answer as it is, head and body in one write; without it, Node
        // frames it in chunks (a length line, the body, an end chunk), which both sides pay for.
        "content-length": String(Buffer.byteLength(text)),
        "x-request-id": requestId,
      });
      res.end(text);
      return;
    }
    if (method.methodKind !== "server_streaming") throw unsupportedMethodKind(method.name, method.methodKind);

    // Server streaming: newline-delimited JSON, or Server-Sent Events when the caller asks for them.
    const sse = (req.headers.accept ?? "").includes("text/event-stream");
    const frame = (json: string) => (sse ? `data: ${json}\n\n` : `${json}\n`);
    const result = await invokeServerStream(
      transport,
      method as DescMethodServerStreaming,
      input,
      header,
      abort.signal,
    );
    const start = () => {
      if (res.headersSent) return;
      (res as ServerResponse).writeHead(200, {
        ...extra,
        ...forwardResponseHeaders(policy, result.header),
        "content-type": sse ? "text/event-stream" : "application/x-ndjson",
        "cache-control": "no-store",
        "x-request-id": requestId,
      });
    };
    try {
      for await (const message of result.messages) {
        start();
        (res as ServerResponse).write(frame(route.render(message)));
      }
    } catch (err) {
      // Before the first message the caller still gets a plain error status.
      if (!res.headersSent) throw err;
      const rest = toRestError(err);
      if (rest.internal) logger?.error({ err, requestId, url: req.url }, "REST stream failed");
      const json = JSON.stringify({ error: rest.body });
      res.end(sse ? `event: error\ndata: ${json}\n\n` : `${json}\n`);
      return;
    }
    start();
    res.end();
  };

  const handler = (req: NodeRequest, res: NodeResponse): void => {
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const path = q < 0 ? url : url.slice(0, q);
    const query = q < 0 ? "" : url.slice(q + 1);

    // nosniff, no-store and HSTS on every API answer (security-headers.ts); CORS adds to them.
    let extra: Record<string, string> = apiSecurityHeaders(req);
    if (cors && req.headers.origin) {
      const pre = cors.preflight(req.method, req.headers);
      if (pre) {
        (res as ServerResponse).writeHead(pre.status, pre.headers);
        res.end();
        return;
      }
      extra = { ...extra, ...cors.headersFor(req.headers) };
    }

    if (path === OPENAPI_PATH && (req.method === "GET" || req.method === "HEAD")) {
      (res as ServerResponse).writeHead(200, { ...extra, "content-type": "application/json; charset=utf-8" });
      (res as ServerResponse).end(req.method === "HEAD" ? "" : openapiText);
      return;
    }

    if (passthrough.tryHandle(req, res, path, extra)) return;

    const requestId = requestIdOf(req.headers);
    let match: RouteMatch<Route>;
    try {
      match = routes.match(req.method ?? "GET", path);
    } catch (err) {
      if (opts.staticHandler && toRestError(err).status === 404 && opts.staticHandler(req, res)) return;
      sendError(req, res, err, requestId, extra);
      return;
    }
    // The call's work carries its request id: a bug that drops a promise is logged under it (issue 9 defect 1).
    runWithRequestId(requestId, () => serveRest(req, res, match, query, requestId, extra)).catch((err: unknown) => {
      try {
        sendError(req, res, err, requestId, extra);
      } catch (failure) {
        // An answer that cannot be written (a header value Node refuses): never a rejection nobody handles.
        logger?.error({ err: failure, cause: err, requestId, url: req.url }, "REST error answer failed");
        res.destroy();
      }
    });
  };

  return { handler, routes, openapi, close: () => passthrough.close(), bodyBytesInFlight: () => budget.inFlight() };
}
