// Server streams served by the kit's own wire handler (server-streams.ts) read, for every protocol and codec a client
// may pick, as Connect's own handler would answer them; what the handler does not take reaches the next handler.
// The next handler here only answers 404, so every stream that works was served by the kit's handler.
import type http from "node:http";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, type Interceptor, type Transport } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import {
  EchoRequestSchema,
  EchoResponseSchema,
  EchoService,
  EchoStreamRequestSchema,
  EchoStreamResponseSchema,
} from "@tt/proto/tt/testing/v1/echo_service_pb";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { directStream, directStreams, SharedMessage, type DirectStream, type HeldCall } from "./direct-stream.ts";
import { onStreamEnd } from "../interceptors/stream-end.ts";
import { captureRoutes } from "./route-capture.ts";
import { SERVER_STREAM_REQUEST_MAX_BYTES, serveServerStreams } from "./server-streams.ts";
import { serveBothHttp, TRANSPORTS, type BothHttp } from "../test-support/both-http.ts";
import { echoImplementation } from "../test-support/echo-service.ts";

const PATH = "/tt.testing.v1.EchoService/EchoStream";
/** Why the implementation's signal ended, by the request's text. */
const ended = new Map<string, unknown>();
let passedOn = 0;

/** EchoStream as the echo service has it, but "direct" sends its later messages through the call's direct stream. */
const routes = captureRoutes((router) =>
  router.service(EchoService, {
    ...echoImplementation(),
    async *echoStream(req, ctx) {
      ctx.signal.addEventListener("abort", () => ended.set(req.text, ctx.signal.reason), { once: true });
      if (req.text.startsWith("held")) {
        const out = directStream(ctx)!;
        yield { text: req.text, index: 0 };
        const entry = { out, ended: false } as { out: DirectStream; call: HeldCall; ended: boolean };
        entry.call = out.hold!(() => (entry.ended = true));
        holding.set(req.text, entry);
        return;
      }
      if (req.text !== "direct") {
        yield* echoImplementation().echoStream(req, ctx);
        return;
      }
      const out = directStream(ctx);
      yield { text: req.text, index: 0 };
      for (let index = 1; index < req.count; index++) {
        const message = new SharedMessage(EchoStreamResponseSchema, create(EchoStreamResponseSchema, { index }));
        expect(out?.write(message.frame(out.format))).toBe(true);
      }
      // Held open until the caller goes away.
      await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }));
    },
  }),
);

/** A refusal before any message, as the access interceptor makes one; and the response header an interceptor adds. */
const refuse: Interceptor = (next) => async (req) => {
  if (req.header.get("x-refuse")) throw new ConnectError("refused here", Code.Unauthenticated);
  const res = await next(req);
  res.header.set("x-seen", "yes");
  // An interceptor may answer with header objects of its own.
  if (!res.stream && req.header.get("x-own-headers")) {
    return { ...res, header: new Headers({ "x-own": "header" }), trailer: new Headers({ "x-own": "trailer" }) };
  }
  return res;
};

/** When each call's stream ended, and with what, as the kit's metrics and logging interceptors see it. */
const streamEnds = new Map<string, { error: unknown }>();
const observe: Interceptor = (next) => async (req) => {
  const res = await next(req);
  if (!res.stream) return res;
  const text = (req.header.get("x-text") ?? "") as string;
  return { ...res, message: onStreamEnd(req.contextValues, res.message, (error) => streamEnds.set(text, { error })) };
};
const handlerFailures: unknown[] = [];

/** Calls the "held" implementation handed over, by the request's text: its direct stream and the held call. */
const holding = new Map<string, { out: DirectStream; call: HeldCall; ended: boolean }>();

const direct = directStreams();
const handler = direct.wrap(
  serveServerStreams(
    {
      methods: routes.methods,
      interceptors: [observe, refuse],
      contextValues: direct.values,
      maxTimeoutMs: 60_000,
      logger: { error: (obj: unknown) => handlerFailures.push(obj) },
    },
    (_req, res) => {
      passedOn++;
      (res as http.ServerResponse).writeHead(404).end();
    },
  ),
);
let servers: BothHttp;

beforeAll(async () => {
  servers = await serveBothHttp(handler);
});

afterAll(async () => {
  expect(handlerFailures).toEqual([]);
  await servers.close();
});

/** Reads a stream and goes away after the message with index `last`: the indexes read (the read ends Canceled). */
async function readThenGoAway(
  open: (signal: AbortSignal) => AsyncIterable<{ index: number }>,
  last: number,
): Promise<number[]> {
  const abort = new AbortController();
  const got: number[] = [];
  await expect(
    (async () => {
      for await (const m of open(abort.signal)) {
        got.push(m.index);
        if (m.index === last) abort.abort();
      }
    })(),
  ).rejects.toMatchObject({ code: Code.Canceled });
  return got;
}

async function collect(transport: Transport, req: { text: string; count: number; intervalMs?: number }, opts = {}) {
  const got: number[] = [];
  let error: ConnectError | undefined;
  let header: Headers | undefined;
  try {
    const client = createClient(EchoService, transport);
    for await (const m of client.echoStream(req, { ...opts, onHeader: (h) => (header = h) })) got.push(m.index);
  } catch (err) {
    error = ConnectError.from(err);
  }
  return { got, error, header };
}

describe("server streams on the kit's handler", () => {
  it.each(TRANSPORTS)("%s: every message in order, the interceptors' headers, a clean end", async (name) => {
    const before = passedOn;
    const { got, error, header } = await collect(servers.transport(name), { text: "hi", count: 4 });
    expect(error).toBeUndefined();
    expect(got).toEqual([0, 1, 2, 3]);
    expect(header?.get("x-seen")).toBe("yes");
    expect(passedOn).toBe(before);
  });

  it.each(TRANSPORTS)("%s: an error after a message ends the stream with its code", async (name) => {
    const { got, error } = await collect(servers.transport(name), { text: "boom", count: 3 });
    expect(got).toEqual([0]);
    expect(error).toMatchObject({ code: Code.Aborted, rawMessage: "stream broke" });
  });

  it.each(TRANSPORTS)("%s: an interceptor's refusal comes before any message", async (name) => {
    const { got, error } = await collect(
      servers.transport(name),
      { text: "hi", count: 3 },
      { headers: { "x-refuse": "1" } },
    );
    expect(got).toEqual([]);
    expect(error).toMatchObject({ code: Code.Unauthenticated, rawMessage: "refused here" });
  });

  it.each(TRANSPORTS)("%s: direct writes follow the first message", async (name) => {
    const client = createClient(EchoService, servers.transport(name));
    const got = await readThenGoAway((signal) => client.echoStream({ text: "direct", count: 3 }, { signal }), 2);
    expect(got).toEqual([0, 1, 2]);
  });

  it("a caller that goes away ends the implementation's call", async () => {
    const client = createClient(EchoService, servers.transport("gRPC"));
    const got = await readThenGoAway(
      (signal) => client.echoStream({ text: "goes away", count: 3, intervalMs: 60_000 }, { signal }),
      0,
    );
    expect(got).toEqual([0]);
    await expect.poll(() => ended.has("goes away")).toBe(true);
    expect(ConnectError.from(ended.get("goes away")).code).toBe(Code.Canceled);
  });
});

describe("a call held open after its implementation returned", () => {
  const frame = (index: number, out: DirectStream) =>
    new SharedMessage(EchoStreamResponseSchema, create(EchoStreamResponseSchema, { index })).frame(out.format);

  it.each(TRANSPORTS)("%s: direct writes, then end(): a clean end the observers see then", async (name) => {
    const text = `held ${name}`;
    const client = createClient(EchoService, servers.transport(name));
    const got: number[] = [];
    const stream = client.echoStream({ text, count: 1 }, { headers: { "x-text": text } });
    for await (const m of stream) {
      got.push(m.index);
      const held = holding.get(text)!;
      if (m.index === 0) {
        // The implementation has returned; the stream is still open and its end not yet seen.
        expect(streamEnds.has(text)).toBe(false);
        expect(held.out.write(frame(1, held.out))).toBe(true);
        expect(held.out.write(frame(2, held.out))).toBe(true);
      }
      if (m.index === 2) held.call.end();
    }
    expect(got).toEqual([0, 1, 2]);
    expect(streamEnds.get(text)).toEqual({ error: undefined });
    expect(holding.get(text)!.ended).toBe(true);
  });

  it("a held call whose caller goes away ends: onEnd runs, the observers see a stream that ended", async () => {
    const client = createClient(EchoService, servers.transport("Connect binary, HTTP/2"));
    const text = "held, then gone";
    const got = await readThenGoAway(
      (signal) => client.echoStream({ text, count: 1 }, { signal, headers: { "x-text": text } }),
      0,
    );
    expect(got).toEqual([0]);
    await expect.poll(() => holding.get("held, then gone")?.ended).toBe(true);
    expect(streamEnds.get("held, then gone")).toEqual({ error: undefined });
    expect(holding.get("held, then gone")!.out.write(new Uint8Array(5))).toBe(false);
  });

  it("a held call ends at its deadline, with deadline_exceeded", async () => {
    const client = createClient(EchoService, servers.transport("gRPC"));
    const got: number[] = [];
    // The server's deadline is the caller's: the client's own timer may fire first, so the status is the server's
    // or the client's, and both say deadline_exceeded.
    const err = await (async () => {
      for await (const m of client.echoStream(
        { text: "held, deadline", count: 1 },
        { timeoutMs: 300, headers: { "x-text": "held, deadline" } },
      ))
        got.push(m.index);
    })().catch((e: unknown) => ConnectError.from(e));
    expect(got).toEqual([0]);
    expect(err?.code).toBe(Code.DeadlineExceeded);
    await expect.poll(() => holding.get("held, deadline")?.ended).toBe(true);
  });
});

describe("shutdown", () => {
  it("ends every open call, held or not, with unavailable", async () => {
    const shutdown = new AbortController();
    const server = http2.createServer(
      direct.wrap(
        serveServerStreams(
          {
            methods: routes.methods,
            interceptors: [],
            contextValues: direct.values,
            shutdownSignal: shutdown.signal,
            maxTimeoutMs: 60_000,
            logger: { error: (obj: unknown) => handlerFailures.push(obj) },
          },
          (_req, res) => (res as unknown as http.ServerResponse).writeHead(404).end(),
        ),
      ),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const client = createClient(
      EchoService,
      createConnectTransport({
        baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        httpVersion: "2",
      }),
    );
    const results = ["held at shutdown", "open at shutdown"].map(async (text) => {
      const got: number[] = [];
      try {
        for await (const m of client.echoStream({ text, count: 2, intervalMs: 60_000 })) {
          got.push(m.index);
          if (got.length === 1) opened.push(text);
        }
      } catch (err) {
        return { got, error: ConnectError.from(err) };
      }
      return { got, error: undefined };
    });
    const opened: string[] = [];
    await expect.poll(() => opened.length).toBe(2);
    shutdown.abort(new Error("host closing"));
    for (const r of await Promise.all(results)) {
      expect(r.got).toEqual([0]);
      expect(r.error).toMatchObject({ code: Code.Unavailable, rawMessage: "the server is shutting down" });
    }
    expect(holding.get("held at shutdown")?.ended).toBe(true);
    expect(ConnectError.from(ended.get("open at shutdown")).code).toBe(Code.Unavailable);
  });
});

/** One raw HTTP/2 request (to EchoStream unless `path` says); the answer's status, headers, body and trailers. */
async function raw(headers: Record<string, string>, body: Uint8Array, path = PATH) {
  const session = http2.connect(servers.url2);
  try {
    const stream = session.request({ ":method": "POST", ":path": path, ...headers });
    stream.end(body);
    const chunks: Buffer[] = [];
    let trailers: http2.IncomingHttpHeaders = {};
    stream.on("trailers", (t) => (trailers = t));
    const response = await new Promise<http2.IncomingHttpHeaders>((resolve) => stream.once("response", resolve));
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return { status: response[":status"], headers: response, body: Buffer.concat(chunks), trailers };
  } finally {
    session.close();
  }
}

function frame(payload: Uint8Array, flags = 0): Buffer {
  const out = Buffer.alloc(5 + payload.length);
  out[0] = flags;
  out.writeUInt32BE(payload.length, 1);
  out.set(payload, 5);
  return out;
}

const request = toBinary(EchoStreamRequestSchema, create(EchoStreamRequestSchema, { text: "hi", count: 1 }));

describe("requests the kit's handler refuses or passes on", () => {
  it.each([
    // Connect's handler answers the same: unimplemented for a count of messages other than one (as gRPC does),
    // invalid_argument for what cannot be read, resource_exhausted for a body over the limit.
    ["two messages", Buffer.concat([frame(request), frame(request)]), Code.Unimplemented],
    ["no message", Buffer.alloc(0), Code.Unimplemented],
    ["an end-of-stream flag", frame(request, 0x80), Code.InvalidArgument],
    ["a compressed flag without an encoding", frame(request, 1), Code.InvalidArgument],
    ["a message that is not protobuf", frame(new Uint8Array([0xff, 0xff, 0xff])), Code.InvalidArgument],
    ["a cut envelope", frame(request).subarray(0, 6), Code.InvalidArgument],
    [
      "a body larger than a stream's request may be",
      Buffer.alloc(SERVER_STREAM_REQUEST_MAX_BYTES + 10),
      Code.ResourceExhausted,
    ],
  ])("gRPC-Web with %s: only the trailer, with its status", async (_, body, status) => {
    const res = await raw({ "content-type": "application/grpc-web+proto" }, body);
    expect(res.status).toBe(200);
    expect(res.body[0]).toBe(0x80);
    expect(res.body.subarray(5).toString()).toContain(`grpc-status: ${status}\r\n`);
  });

  it("gRPC: a deadline ends a stream the implementation holds open, and the implementation's call", async () => {
    const slow = toBinary(
      EchoStreamRequestSchema,
      create(EchoStreamRequestSchema, { text: "deadline", count: 3, intervalMs: 60_000 }),
    );
    // The caller sets no timer of its own: the server's deadline ends the call.
    const res = await raw({ "content-type": "application/grpc", te: "trailers", "grpc-timeout": "100m" }, frame(slow));
    expect(res.body.length).toBeGreaterThan(5); // the first message
    expect(res.trailers["grpc-status"]).toBe(String(Code.DeadlineExceeded));
    expect(ConnectError.from(ended.get("deadline")).code).toBe(Code.DeadlineExceeded);
  });

  it("Connect with a compressed request is passed on, unread", async () => {
    const before = passedOn;
    const res = await raw(
      { "content-type": "application/connect+proto", "connect-content-encoding": "gzip" },
      frame(request),
    );
    expect(res.status).toBe(404);
    expect(passedOn).toBe(before + 1);
  });

  it("gRPC-Web text is passed on", async () => {
    const before = passedOn;
    const res = await raw({ "content-type": "application/grpc-web-text" }, frame(request));
    expect(res.status).toBe(404);
    expect(passedOn).toBe(before + 1);
  });

  it("gRPC: the status of a refusal is in the trailers", async () => {
    const res = await raw({ "content-type": "application/grpc", te: "trailers", "x-refuse": "1" }, frame(request));
    expect(res.trailers).toMatchObject({ "grpc-status": "16", "grpc-message": "refused%20here" });
  });

  it("Connect: an overlong deadline is refused as Connect refuses it", async () => {
    const res = await raw(
      { "content-type": "application/connect+proto", "connect-timeout-ms": "99999999999" },
      frame(request),
    );
    const end = JSON.parse(res.body.subarray(5).toString()) as { error: { code: string } };
    expect(end.error.code).toBe("invalid_argument");
  });
});

describe("unary calls over gRPC on the kit's handler", () => {
  const ECHO = "/tt.testing.v1.EchoService/Echo";
  const grpcHeaders = { "content-type": "application/grpc", te: "trailers" };
  const echo = (fields: { text?: string; delayMs?: number }) =>
    frame(toBinary(EchoRequestSchema, create(EchoRequestSchema, fields)));

  it("answers the message, the interceptors' header and status 0 in the trailers, without passing it on", async () => {
    const before = passedOn;
    const res = await raw(grpcHeaders, echo({ text: "hello" }), ECHO);
    expect(res.headers["content-type"]).toBe("application/grpc+proto");
    expect(res.headers["x-seen"]).toBe("yes");
    expect(res.body.readUInt32BE(1)).toBe(res.body.length - 5);
    expect(fromBinary(EchoResponseSchema, res.body.subarray(5)).text).toBe("hello");
    expect(res.trailers["grpc-status"]).toBe("0");
    expect(passedOn).toBe(before);
    const client = await createClient(EchoService, servers.transport("gRPC")).echo({ text: "client" });
    expect(client.text).toBe("client");
  });

  it("sends the headers and trailers an interceptor answered with in objects of its own", async () => {
    const res = await raw({ ...grpcHeaders, "x-own-headers": "1" }, echo({ text: "own" }), ECHO);
    expect(res.headers).toMatchObject({ "content-type": "application/grpc+proto", "x-own": "header" });
    expect(res.trailers).toMatchObject({ "grpc-status": "0", "x-own": "trailer" });
  });

  it("answers JSON to JSON", async () => {
    const res = await raw(
      { ...grpcHeaders, "content-type": "application/grpc+json" },
      frame(new TextEncoder().encode('{"text":"json"}')),
      ECHO,
    );
    expect(res.headers["content-type"]).toBe("application/grpc+json");
    expect(JSON.parse(res.body.subarray(5).toString())).toMatchObject({ text: "json" });
    expect(res.trailers["grpc-status"]).toBe("0");
  });

  it.each([
    // As Connect's gRPC handler answers them.
    ["no message", Buffer.alloc(0), Code.Unimplemented, "missing input message for unary method"],
    ["two messages", Buffer.concat([echo({}), echo({})]), Code.Unimplemented, "extra input message for unary method"],
    ["a compressed flag without an encoding", frame(new Uint8Array([1]), 1), Code.InvalidArgument, "compressed"],
    ["a message that is not protobuf", frame(new Uint8Array([0xff, 0xff, 0xff])), Code.InvalidArgument, ""],
  ])("with %s: no message, the status in the trailers", async (_, body, status, message) => {
    const res = await raw(grpcHeaders, body, ECHO);
    expect(res.body.length).toBe(0);
    expect(res.trailers["grpc-status"]).toBe(String(status));
    expect(decodeURIComponent(String(res.trailers["grpc-message"]))).toContain(message);
  });

  it("an interceptor's refusal and an implementation's own error end the call with their status", async () => {
    const refused = await raw({ ...grpcHeaders, "x-refuse": "1" }, echo({ text: "hi" }), ECHO);
    expect(refused.trailers).toMatchObject({ "grpc-status": "16", "grpc-message": "refused%20here" });
    // The echo implementation throws a plain Error for "boom": its message stays in the server.
    const failed = await raw(grpcHeaders, echo({ text: "boom" }), ECHO);
    expect(failed.trailers).toMatchObject({ "grpc-status": String(Code.Internal), "grpc-message": "internal%20error" });
  });

  it("the caller's deadline ends the call, and an overlong one is refused", async () => {
    const slow = await raw({ ...grpcHeaders, "grpc-timeout": "100m" }, echo({ delayMs: 60_000 }), ECHO);
    expect(slow.trailers["grpc-status"]).toBe(String(Code.DeadlineExceeded));
    const overlong = await raw({ ...grpcHeaders, "grpc-timeout": "99999999H" }, echo({ text: "hi" }), ECHO);
    expect(overlong.trailers["grpc-status"]).toBe(String(Code.InvalidArgument));
  });

  it("Connect, gRPC-Web and a compressed gRPC request are passed on", async () => {
    for (const headers of [
      { "content-type": "application/proto" },
      { "content-type": "application/grpc-web+proto" },
      { ...grpcHeaders, "grpc-encoding": "gzip" },
    ]) {
      const before = passedOn;
      const res = await raw(headers, echo({ text: "hi" }), ECHO);
      expect(res.status).toBe(404);
      expect(passedOn).toBe(before + 1);
    }
  });
});
