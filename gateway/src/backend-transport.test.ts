// The gateway's transport to a service in another process, against real HTTP/2 servers on port 0: its unary
// client must answer exactly as Connect's own transports do, over the Connect protocol and over gRPC (messages,
// headers, trailers, errors with their metadata and details), and cancel, time out and fail the way a caller of a
// Transport expects.
import http2 from "node:http2";
import type { AddressInfo, Socket } from "node:net";
import { Code, ConnectError, createClient, type ConnectRouter, type Transport } from "@connectrpc/connect";
import {
  connectNodeAdapter,
  createConnectTransport,
  createGrpcTransport,
  type Http2SessionManager,
} from "@connectrpc/connect-node";
import { FixtureService } from "@tt/proto/tt/fixture/v1/fixture_service_pb";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { backendSession, createBackendTransport, type BackendProtocol } from "./backend-transport.ts";
import { fixtureImpl, fixtureRoutes } from "./testing/fixture-service.ts";
import { listen, type Running } from "./testing/servers.ts";

let fixture: Running;
let session: Http2SessionManager;

beforeAll(async () => {
  fixture = await listen(connectNodeAdapter({ routes: fixtureRoutes }));
  session = backendSession(fixture.h2url);
});

afterAll(async () => {
  session.abort();
  await fixture.close();
});

/** Connect's own transport for `protocol`, configured as ours works: binary, nothing compressed. */
function reference(baseUrl: string, protocol: BackendProtocol = "connect"): Transport {
  const options = { baseUrl, httpVersion: "2" as const, useBinaryFormat: true, acceptCompression: [] };
  return protocol === "grpc" ? createGrpcTransport(options) : createConnectTransport(options);
}

/**
 * Everything a caller can observe of an outcome, minus the Date header (it ticks) and the user-agent Connect's
 * transport announces (Echo sends it back, which changes the content-length too).
 */
async function outcome(call: Promise<unknown>) {
  const entries = (h: Headers) => [...h].filter(([name]) => name !== "date" && name !== "content-length");
  try {
    const res = (await call) as { message: { headers?: Record<string, string> }; header: Headers; trailer: Headers };
    delete res.message.headers?.["user-agent"];
    return { message: res.message, header: entries(res.header), trailer: entries(res.trailer) };
  } catch (err) {
    const e = ConnectError.from(err);
    return { code: Code[e.code], message: e.rawMessage, metadata: entries(e.metadata), details: e.details };
  }
}

/** An HTTP/2 server on port 0 that is not a Connect service, and a session to it; both closed after the test. */
async function plainH2Server(handler: (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => void) {
  const server = http2.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const s = backendSession(url);
  onTestFinished(async () => {
    s.abort();
    await new Promise((resolve) => server.close(resolve));
  });
  return { url, session: s };
}

/** A client of the fixture service at a plainH2Server. */
async function plainH2(handler: (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => void) {
  const { url, session: s } = await plainH2Server(handler);
  return createClient(FixtureService, createBackendTransport({ baseUrl: url, session: s }));
}

describe.each<[BackendProtocol, Record<string, string>]>([
  ["connect", { "content-type": "application/proto", "connect-protocol-version": "1" }],
  ["grpc", { "content-type": "application/grpc+proto", te: "trailers" }],
])("unary calls over %s answer as Connect's own transport does", (protocol, protocolHeaders) => {
  let own: Transport;
  let theirs: Transport;
  beforeAll(() => {
    own = createBackendTransport({ baseUrl: fixture.h2url, session, protocol });
    theirs = reference(fixture.h2url, protocol);
  });
  const header = { authorization: "Bearer abc", "x-request-id": "req-1", "x-forwarded-for": "10.0.0.1" };
  const calls: Array<[string, (t: Transport) => Promise<unknown>]> = [
    ["a message with defaults", (t) => t.unary(FixtureService.method.hello, undefined, undefined, undefined, {})],
    [
      "nested values, non-ASCII text and 64-bit integers",
      (t) =>
        t.unary(FixtureService.method.echo, undefined, undefined, header, {
          tenant: "café ☕",
          thing: { id: "x".repeat(3000), int64Value: 9007199254740993n, repeatedString: ["a", "b"] },
        }),
    ],
    [
      "a not-found error",
      (t) =>
        t.unary(FixtureService.method.fail, undefined, undefined, undefined, {
          code: "not_found",
          message: "no such thing",
        }),
    ],
    [
      "an error with metadata (retry-after)",
      (t) =>
        t.unary(FixtureService.method.fail, undefined, undefined, undefined, {
          code: "resource_exhausted",
          message: "slow down",
        }),
    ],
    [
      "an error from a thrown Error",
      (t) => t.unary(FixtureService.method.fail, undefined, undefined, undefined, { code: "throw" }),
    ],
    ["an unimplemented method", (t) => t.unary(FixtureService.method.upload, undefined, undefined, undefined, {})],
  ];

  it.each(calls)("%s", async (_name, call) => {
    const expected = await outcome(call(theirs));
    expect(await outcome(call(own))).toEqual(expected);
  });

  it("forwards the caller's headers and says which protocol it speaks", async () => {
    const res = await own.unary(FixtureService.method.echo, undefined, undefined, header, {});
    expect(res.message.headers).toMatchObject({ ...header, ...protocolHeaders });
    expect(res.header.get("etag")).toBe('"echo"');
  });

  it("carries error details", async () => {
    const routes = (router: ConnectRouter) =>
      router.service(FixtureService, {
        ...fixtureImpl,
        fail() {
          const err = new ConnectError("refused", Code.FailedPrecondition, { "x-why": "because" });
          err.details.push({ desc: FixtureService.method.fail.output, value: {} });
          throw err;
        },
      });
    const server = await listen(connectNodeAdapter({ routes }));
    const s = backendSession(server.h2url);
    onTestFinished(async () => {
      s.abort();
      await server.close();
    });
    const call = (t: Transport) => t.unary(FixtureService.method.fail, undefined, undefined, undefined, {});
    const expected = await outcome(call(reference(server.h2url, protocol)));
    expect(expected).toMatchObject({ code: "FailedPrecondition", details: [{ type: "tt.fixture.v1.FailResponse" }] });
    expect(await outcome(call(createBackendTransport({ baseUrl: server.h2url, session: s, protocol })))).toEqual(
      expected,
    );
  });

  it("keeps many concurrent calls apart on one session", async () => {
    const client = createClient(FixtureService, own);
    const ids = Array.from({ length: 200 }, (_, i) => `thing-${i}`);
    const answers = await Promise.all(ids.map((id) => client.getThing({ id })));
    expect(answers.map((a) => a.thing?.id)).toEqual(ids);
  });

  it("leaves server streaming to Connect's transport on the same session", async () => {
    const client = createClient(FixtureService, own);
    const seen: number[] = [];
    for await (const m of client.streamThings({ count: 3 })) seen.push(m.index);
    expect(seen).toEqual([0, 1, 2]);
    const failing = async () => {
      for await (const m of client.streamThings({ count: 1, failCode: "aborted" })) seen.push(m.index);
    };
    await expect(failing()).rejects.toMatchObject({ code: Code.Aborted, rawMessage: "stream failed" });
  });
});

describe.each<[BackendProtocol, string, string]>([
  ["connect", "connect-timeout-ms", "50"],
  ["grpc", "grpc-timeout", "50m"],
])("cancellation and deadlines over %s", (protocol, timeoutHeader, timeoutValue) => {
  /** A service whose Hello waits until its call is cancelled, and says so. */
  async function waitingService() {
    let cancelled!: (reason: unknown) => void;
    const seen = new Promise<unknown>((resolve) => (cancelled = resolve));
    let started!: (timeout: string | null) => void;
    const began = new Promise<string | null>((resolve) => (started = resolve));
    const routes = (router: ConnectRouter) =>
      router.service(FixtureService, {
        ...fixtureImpl,
        hello: (_req, ctx) =>
          new Promise((_resolve, reject) => {
            started(ctx.requestHeader.get(timeoutHeader));
            ctx.signal.addEventListener("abort", () => {
              cancelled(ctx.signal.reason);
              reject(ctx.signal.reason as Error);
            });
          }),
      });
    const server = await listen(connectNodeAdapter({ routes }));
    const s = backendSession(server.h2url);
    onTestFinished(async () => {
      s.abort();
      await server.close();
    });
    return {
      transport: createBackendTransport({ baseUrl: server.h2url, session: s, protocol }),
      began,
      cancelled: seen,
    };
  }

  it("an aborted call fails as Canceled and the service learns of it", async () => {
    const { transport, began, cancelled } = await waitingService();
    const abort = new AbortController();
    const call = transport.unary(FixtureService.method.hello, abort.signal, undefined, undefined, {});
    await began;
    abort.abort();
    await expect(call).rejects.toMatchObject({ code: Code.Canceled });
    expect(await cancelled).toBeDefined();
  });

  it("a call whose signal is already aborted fails at once as Canceled", async () => {
    const abort = new AbortController();
    abort.abort();
    const transport = createBackendTransport({ baseUrl: fixture.h2url, session, protocol });
    await expect(
      transport.unary(FixtureService.method.hello, abort.signal, undefined, undefined, {}),
    ).rejects.toMatchObject({ code: Code.Canceled });
  });

  it("a deadline is sent to the service and ends the call as DeadlineExceeded", async () => {
    const { transport, began, cancelled } = await waitingService();
    const call = transport.unary(FixtureService.method.hello, undefined, 50, undefined, {});
    expect(await began).toBe(timeoutValue);
    await expect(call).rejects.toMatchObject({ code: Code.DeadlineExceeded });
    expect(await cancelled).toBeDefined();
  });
});

describe("a service that cannot answer", () => {
  it("is Unavailable while it is down, and answers again on the same session once it is back", async () => {
    const handler = connectNodeAdapter({ routes: fixtureRoutes });
    const start = async (port = 0) => {
      const server = http2.createServer(handler);
      const sockets = new Set<Socket>();
      server.on("connection", (socket: Socket) => sockets.add(socket));
      await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
      const stop = () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        for (const socket of sockets) socket.destroy();
        return closed;
      };
      return { port: (server.address() as AddressInfo).port, stop };
    };
    const first = await start();
    const url = `http://127.0.0.1:${first.port}`;
    const s = backendSession(url);
    onTestFinished(() => s.abort());
    const client = createClient(FixtureService, createBackendTransport({ baseUrl: url, session: s }));
    expect((await client.getThing({ id: "before" })).thing?.id).toBe("before");

    await first.stop();
    await expect(client.getThing({ id: "down" })).rejects.toMatchObject({ code: Code.Unavailable });

    const second = await start(first.port);
    onTestFinished(second.stop);
    expect((await client.getThing({ id: "after" })).thing?.id).toBe("after");
  });

  it("is Unavailable while nothing listens", async () => {
    const probe = http2.createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
    await new Promise((resolve) => probe.close(resolve));
    const s = backendSession(url);
    onTestFinished(() => s.abort());
    const client = createClient(FixtureService, createBackendTransport({ baseUrl: url, session: s }));
    await expect(client.hello({})).rejects.toMatchObject({ code: Code.Unavailable });
  });

  it("maps a non-Connect error status by Connect's table, keeping its headers", async () => {
    const client = await plainH2((_req, res) => {
      res.writeHead(502, { "content-type": "text/html", "retry-after": "5" }).end("<h1>Bad gateway</h1>");
    });
    const err = await client.hello({}).catch((e: unknown) => ConnectError.from(e));
    expect(err).toMatchObject({ code: Code.Unavailable, rawMessage: "HTTP 502" });
    expect((err as ConnectError).metadata.get("retry-after")).toBe("5");
  });

  it("refuses a success that is not a binary Connect message", async () => {
    const client = await plainH2((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" }).end("<h1>hello</h1>");
    });
    await expect(client.hello({})).rejects.toMatchObject({ code: Code.Unknown });
  });

  it("refuses a compressed answer it did not ask for, and bytes that are not the message", async () => {
    const compressed = await plainH2((_req, res) => {
      res.writeHead(200, { "content-type": "application/proto", "content-encoding": "gzip" }).end();
    });
    await expect(compressed.hello({})).rejects.toMatchObject({ code: Code.Internal });
    const garbage = await plainH2((_req, res) => {
      res.writeHead(200, { "content-type": "application/proto" }).end(Buffer.from([0xff, 0xff, 0xff]));
    });
    await expect(garbage.hello({})).rejects.toMatchObject({ code: Code.Internal });
  });

  it.each<[string, (res: http2.Http2ServerResponse) => void]>([
    [
      "a trailers-only error",
      (res) =>
        res
          .writeHead(200, { "content-type": "application/grpc+proto", "grpc-status": "5", "grpc-message": "gone" })
          .end(),
    ],
    [
      "a message without a status",
      (res) => res.writeHead(200, { "content-type": "application/grpc+proto" }).end(Buffer.from([0, 0, 0, 0, 0])),
    ],
    [
      "an incomplete envelope",
      (res) => {
        res.addTrailers({ "grpc-status": "0" });
        res.writeHead(200, { "content-type": "application/grpc+proto" }).end(Buffer.from([0, 0, 0, 0, 9, 1]));
      },
    ],
    [
      "a compressed message it did not ask for",
      (res) => {
        res.addTrailers({ "grpc-status": "0" });
        res.writeHead(200, { "content-type": "application/grpc+proto" }).end(Buffer.from([1, 0, 0, 0, 0]));
      },
    ],
    [
      "two messages for a unary call",
      (res) => {
        res.addTrailers({ "grpc-status": "0" });
        res
          .writeHead(200, { "content-type": "application/grpc+proto" })
          .end(Buffer.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0]));
      },
    ],
    [
      "bytes that are not the message",
      (res) => {
        res.addTrailers({ "grpc-status": "0" });
        res
          .writeHead(200, { "content-type": "application/grpc+proto" })
          .end(Buffer.from([0, 0, 0, 0, 3, 0xff, 0xff, 0xff]));
      },
    ],
    ["no status and no message", (res) => res.writeHead(200, { "content-type": "application/grpc+proto" }).end()],
  ])("over gRPC, %s fails as Connect's gRPC transport fails", async (_name, answer) => {
    const { url, session: s } = await plainH2Server((_req, res) => answer(res));
    const call = (t: Transport) => t.unary(FixtureService.method.hello, undefined, undefined, undefined, {});
    const expected = await outcome(call(reference(url, "grpc")));
    expect(expected).toHaveProperty("code");
    expect(await outcome(call(createBackendTransport({ baseUrl: url, session: s, protocol: "grpc" })))).toEqual(
      expected,
    );
  });

  it("stops reading an answer larger than readMaxBytes", async () => {
    const s = backendSession(fixture.h2url);
    onTestFinished(() => s.abort());
    const client = createClient(
      FixtureService,
      createBackendTransport({ baseUrl: fixture.h2url, session: s, readMaxBytes: 1024 }),
    );
    await expect(client.echo({ tenant: "t".repeat(4096) })).rejects.toMatchObject({ code: Code.ResourceExhausted });
    expect((await client.echo({ tenant: "small" })).tenant).toBe("small");
  });
});

describe("idle sessions", () => {
  it("issue 9 defect 8: closes an idle session itself, before the service's idle timeout would, and reconnects", async () => {
    // Services close a session idle for IDLE_TIMEOUT_MS; a call sent while their GOAWAY is on its way would be
    // refused (REFUSED_STREAM), so the gateway must be the one that closes first.
    const s = backendSession(fixture.h2url, { idleConnectionTimeoutMs: 100 });
    onTestFinished(() => s.abort());
    const client = createClient(FixtureService, createBackendTransport({ baseUrl: fixture.h2url, session: s }));
    expect((await client.echo({ tenant: "before" })).tenant).toBe("before");
    await expect.poll(() => s.state(), { timeout: 5000, interval: 20 }).toBe("closed");
    expect((await client.echo({ tenant: "after" })).tenant).toBe("after");
  });
});
