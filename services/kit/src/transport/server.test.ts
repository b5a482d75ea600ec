import http from "node:http";
import http2 from "node:http2";
import type net from "node:net";
import { Code, ConnectError, createClient, type Transport } from "@connectrpc/connect";
import { connectNodeAdapter, createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import { EchoService } from "@tt/proto/tt/testing/v1/echo_service_pb";
import { Counter, Registry } from "prom-client";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../logger.ts";
import {
  addressKey,
  createServer,
  type NodeRequestHandler,
  type RunningServer,
  type ServerLimits,
  type ServerOptions,
} from "./server.ts";
import { echoImplementation, type EchoProbe } from "../test-support/echo-service.ts";
import { rawConnection, type RawConnection } from "../testing/raw-connection.ts";

const logger = createLogger({ service: "kit-server-test", level: "silent" });
const running: RunningServer[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.close();
});

async function start(
  opts: {
    ready?: () => Promise<boolean>;
    probe?: EchoProbe;
    shutdownTimeoutMs?: number;
    registry?: Registry;
    metrics?: ServerOptions["metrics"];
    limits?: Partial<ServerLimits>;
    handler?: NodeRequestHandler;
  } = {},
) {
  const server = await createServer({
    handler:
      opts.handler ??
      connectNodeAdapter({ routes: (router) => router.service(EchoService, echoImplementation(opts.probe)) }),
    port: 0,
    host: "127.0.0.1",
    ready: opts.ready ?? (async () => true),
    logger,
    shutdownTimeoutMs: opts.shutdownTimeoutMs ?? 5_000,
    registry: opts.registry,
    metrics: opts.metrics,
    limits: opts.limits,
  });
  running.push(server);
  return server;
}

/** A plain HTTP/1.1 GET, so the probes are tested the way kubelet and Prometheus call them. */
function get(url: string): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, type: String(res.headers["content-type"]), body }));
      })
      .on("error", reject);
  });
}

function started(probe: EchoProbe): Promise<void> {
  return new Promise((resolve) => (probe.onEchoStarted = resolve));
}

describe("createServer", () => {
  it("listens on a free port for port 0 and serves /healthz", async () => {
    const server = await start();
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    expect(await get(`${server.url}/healthz`)).toMatchObject({ status: 200, body: "ok\n" });
  });

  it("answers /readyz from the readiness check", async () => {
    let ready = true;
    const server = await start({ ready: async () => ready });
    expect((await get(`${server.url}/readyz`)).status).toBe(200);
    ready = false;
    expect((await get(`${server.url}/readyz`)).status).toBe(503);
  });

  it("answers /readyz 503 when the readiness check throws", async () => {
    const server = await start({
      ready: async () => {
        throw new Error("database down");
      },
    });
    expect(await get(`${server.url}/readyz`)).toMatchObject({ status: 503, body: "not ready\n" });
  });

  it("issue 9 defect 10: serves /metrics on the metrics port only; the public port answers 404", async () => {
    const registry = new Registry();
    new Counter({ name: "kit_test_total", help: "a test counter", registers: [registry] }).inc(3);
    const server = await start({ registry, metrics: { port: 0, host: "127.0.0.1" } });
    expect(server.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.metricsUrl).not.toBe(server.url);
    const res = await get(`${server.metricsUrl}/metrics`);
    expect(res.status).toBe(200);
    expect(res.type).toContain("text/plain");
    expect(res.body).toContain("kit_test_total 3");
    // Nothing else there, and no metrics on the public port, whose probes stay where kubelet calls them.
    expect((await get(`${server.metricsUrl}/healthz`)).status).toBe(404);
    const publicMetrics = await get(`${server.url}/metrics`);
    expect(publicMetrics.status).toBe(404);
    expect(publicMetrics.body).not.toContain("kit_test_total");
    expect((await get(`${server.url}/healthz`)).status).toBe(200);
    expect((await get(`${server.url}/readyz`)).status).toBe(200);
    await server.close();
    await expect(get(`${server.metricsUrl}/metrics`)).rejects.toThrow(/ECONNREFUSED/);
  });

  it("issue 9 defect 10: a taken metrics port fails the start, unless a free one may stand in", async () => {
    const taken = http.createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    try {
      const port = (taken.address() as net.AddressInfo).port;
      await expect(start({ metrics: { port, host: "127.0.0.1" } })).rejects.toThrow(/EADDRINUSE/);
      const server = await start({ metrics: { port, host: "127.0.0.1", orFreePort: true } });
      expect(server.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(server.metricsUrl).not.toBe(`http://127.0.0.1:${port}`);
      expect((await get(`${server.metricsUrl}/metrics`)).status).toBe(200);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it("issue 9 defect 10: serves no metrics at all without a metrics port", async () => {
    const server = await start();
    expect(server.metricsUrl).toBeUndefined();
    expect((await get(`${server.url}/metrics`)).status).toBe(404);
  });

  it("serves Connect over HTTP/1.1 and gRPC over h2c on the same port", async () => {
    const server = await start();
    for (const transport of [
      createConnectTransport({ baseUrl: server.url, httpVersion: "1.1" }),
      createGrpcTransport({ baseUrl: server.url }),
    ]) {
      expect((await createClient(EchoService, transport).echo({ text: "same port" })).text).toBe("same port");
    }
  });

  it.each([
    ["HTTP/1.1", (url: string) => createConnectTransport({ baseUrl: url, httpVersion: "1.1" })],
    ["HTTP/2", (url: string) => createGrpcTransport({ baseUrl: url })],
  ] as const)("lets a running call finish on close over %s, then refuses connections", async (_name, transport) => {
    const probe: EchoProbe = {};
    const server = await start({ probe });
    const client = createClient(EchoService, transport(server.url) as Transport);
    const isStarted = started(probe);
    const call = client.echo({ text: "in flight", delayMs: 200 });
    await isStarted;
    const closed = server.close();
    expect((await call).text).toBe("in flight");
    await closed;
    await expect(get(`${server.url}/healthz`)).rejects.toThrow(/ECONNREFUSED/);
  });

  it("cuts calls that outlast the shutdown timeout", async () => {
    const probe: EchoProbe = {};
    const server = await start({ probe, shutdownTimeoutMs: 50 });
    const client = createClient(EchoService, createGrpcTransport({ baseUrl: server.url }));
    const isStarted = started(probe);
    const call = client.echo({ text: "too slow", delayMs: 30_000 }).then(() => undefined, ConnectError.from);
    await isStarted;
    await server.close();
    const error = await call;
    expect(error).toBeInstanceOf(ConnectError);
    expect([Code.Unavailable, Code.Internal, Code.Canceled, Code.Unknown]).toContain(error?.code);
  });
});

// Slow clients (issue 9 defect 8). Short limits through the options; every wait is for an event (the socket's
// close, an answer), timings are only asserted loosely to show which limit ended the connection.
const SHORT: Partial<ServerLimits> = { headersTimeoutMs: 300, bodyTimeoutMs: 300, idleTimeoutMs: 300 };

function send(client: RawConnection, text: string) {
  client.socket.write(text);
  client.since = performance.now();
}

/** A handler that reads the whole body and answers its length (uploads). */
const countingHandler: NodeRequestHandler = (req, res) => {
  let bytes = 0;
  req.on("data", (chunk: Buffer) => (bytes += chunk.length));
  req.on("end", () => (res as http.ServerResponse).end(`${bytes} bytes`));
};

describe("createServer against slow clients (issue 9 defect 8)", () => {
  it("issue 9 defect 8: drops a connection that sends nothing, or half a preface, within the headers timeout", async () => {
    const server = await start({ limits: SHORT });
    const silent = await rawConnection(server.url);
    const halfPreface = await rawConnection(server.url);
    send(halfPreface, "PRI * HTTP/2.0\r\n");
    for (const client of [silent, halfPreface]) {
      const { ms } = await client.closed;
      expect(ms).toBeGreaterThanOrEqual(250);
      expect(ms).toBeLessThan(5_000);
    }
  });

  it("issue 9 defect 8: drops a client that sends half its headers and stops, with 408", async () => {
    const server = await start({ limits: SHORT });
    const client = await rawConnection(server.url);
    send(client, "GET /healthz HTTP/1.1\r\nHost: x\r\n");
    const { data, ms } = await client.closed;
    expect(data).toContain("408");
    expect(ms).toBeLessThan(5_000);
  });

  it("issue 9 defect 8: headers trickled a byte at a time do not extend the headers deadline", async () => {
    const server = await start({ limits: SHORT });
    const client = await rawConnection(server.url);
    const started = performance.now();
    const header = "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: " + "a".repeat(10_000);
    let at = 0;
    const trickle = setInterval(() => client.socket.write(header[at++ % header.length]!), 20);
    try {
      await client.closed;
    } finally {
      clearInterval(trickle);
    }
    // Bytes kept arriving every 20 ms, yet the deadline (300 ms, checked every 75 ms) held.
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it("issue 9 defect 8: drops a client that sends its headers and then an idle body", async () => {
    const server = await start({ limits: SHORT, handler: countingHandler });
    const client = await rawConnection(server.url);
    send(client, "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\nfirst bytes");
    const { ms, data } = await client.closed;
    expect(data).toBe("");
    expect(ms).toBeGreaterThanOrEqual(250);
    expect(ms).toBeLessThan(5_000);
  });

  it("issue 9 defect 8: keeps an upload that keeps sending beyond the body timeout (an idle timeout, not a total)", async () => {
    const server = await start({ limits: SHORT, handler: countingHandler });
    const client = await rawConnection(server.url);
    const chunks = 12;
    send(client, `POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: ${chunks * 10}\r\nConnection: close\r\n\r\n`);
    const started = performance.now();
    let sent = 0;
    // A chunk every 100 ms (a third of the body timeout): 1.2 s in all, four times the timeout.
    const sender = setInterval(() => {
      client.socket.write("0123456789");
      if (++sent === chunks) clearInterval(sender);
    }, 100);
    const { data } = await client.closed;
    clearInterval(sender);
    expect(data).toMatch(/^HTTP\/1\.1 200/);
    expect(data).toContain(`${chunks * 10} bytes`);
    expect(performance.now() - started).toBeGreaterThan(1_000);
  });

  it("issue 9 defect 8: closes an idle keep-alive connection after the idle timeout", async () => {
    const server = await start({ limits: SHORT });
    const client = await rawConnection(server.url);
    const answered = new Promise<void>((resolve) => client.socket.once("data", () => resolve()));
    send(client, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
    await answered;
    client.since = performance.now();
    const { data, ms } = await client.closed;
    expect(data).toMatch(/^HTTP\/1\.1 200/);
    // The idle timeout plus the second Node adds to the advertised keep-alive timeout.
    expect(ms).toBeGreaterThanOrEqual(250);
    expect(ms).toBeLessThan(6_000);
  });

  it("issue 9 defect 8: closes an HTTP/2 session that opens and sends nothing", async () => {
    const server = await start({ limits: SHORT });
    const session = http2.connect(server.url);
    session.on("error", () => {});
    await new Promise<void>((resolve) => session.once("connect", () => resolve()));
    const since = performance.now();
    const socketClosed = new Promise<void>((resolve) => session.socket.once("close", () => resolve()));
    // The first GOAWAY names the highest stream id: a request already on its way would still be served.
    const goaway = new Promise<[number, number]>((resolve) =>
      session.once("goaway", (code: number, lastStreamId: number) => resolve([code, lastStreamId])),
    );
    expect(await goaway).toEqual([http2.constants.NGHTTP2_NO_ERROR, 2 ** 31 - 1]);
    await socketClosed;
    expect(performance.now() - since).toBeGreaterThanOrEqual(250);
    expect(session.closed || session.destroyed).toBe(true);
  });

  it("issue 9 defect 8: resets an HTTP/2 stream whose body never ends, then closes the idle session", async () => {
    const server = await start({ limits: SHORT, handler: countingHandler });
    const session = http2.connect(server.url);
    session.on("error", () => {});
    const socketClosed = new Promise<void>((resolve) => session.socket.once("close", () => resolve()));
    const stream = session.request({ ":method": "POST", ":path": "/upload" }, { endStream: false });
    stream.on("error", () => {});
    stream.write("a start, and then nothing");
    const rstCode = await new Promise<number>((resolve) => stream.once("close", () => resolve(stream.rstCode)));
    expect(rstCode).toBe(http2.constants.NGHTTP2_CANCEL);
    await socketClosed;
  });

  it.each([
    ["HTTP/1.1 (Connect)", (url: string) => createConnectTransport({ baseUrl: url, httpVersion: "1.1" })],
    ["HTTP/2 (gRPC)", (url: string) => createGrpcTransport({ baseUrl: url })],
  ] as const)(
    "issue 9 defect 8: a server stream over %s outlives the idle and body timeouts, with pauses longer than both",
    async (_name, transport) => {
      const server = await start({ limits: { headersTimeoutMs: 200, bodyTimeoutMs: 200, idleTimeoutMs: 200 } });
      const client = createClient(EchoService, transport(server.url) as Transport);
      const started = performance.now();
      const seen: number[] = [];
      for await (const message of client.echoStream({ text: "live room", count: 4, intervalMs: 350 })) {
        seen.push(message.index);
      }
      expect(seen).toEqual([0, 1, 2, 3]);
      expect(performance.now() - started).toBeGreaterThan(1_000);
    },
  );

  it("issue 9 defect 8: refuses the connection over the per-address cap while another address still gets in", async () => {
    const server = await start({ limits: { maxConnectionsPerAddress: 3 } });
    const held = await Promise.all([rawConnection(server.url), rawConnection(server.url), rawConnection(server.url)]);
    const extra = await rawConnection(server.url);
    const refused = await extra.closed;
    expect(refused.data).toBe("");
    expect(refused.error).toBe("ECONNRESET");
    // The three held ones are still served, and so is another address (all of 127/8 is loopback on Linux).
    const answered = new Promise<string>((resolve) => held[0]!.socket.once("data", (d: string) => resolve(d)));
    send(held[0]!, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
    expect(await answered).toMatch(/^HTTP\/1\.1 200/);
    const other = await rawConnection(server.url, "127.0.0.2");
    const otherAnswered = new Promise<string>((resolve) => other.socket.once("data", (d: string) => resolve(d)));
    send(other, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
    expect(await otherAnswered).toMatch(/^HTTP\/1\.1 200/);
    for (const client of [...held, other]) client.socket.destroy();
  });

  it("issue 9 defect 8: refuses connections over the global cap", async () => {
    const server = await start({ limits: { maxConnections: 2 } });
    const held = await Promise.all([rawConnection(server.url), rawConnection(server.url)]);
    const extra = await rawConnection(server.url, "127.0.0.3");
    const refused = await extra.closed;
    expect(refused.data).toBe("");
    const answered = new Promise<string>((resolve) => held[1]!.socket.once("data", (d: string) => resolve(d)));
    send(held[1]!, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
    expect(await answered).toMatch(/^HTTP\/1\.1 200/);
    for (const client of held) client.socket.destroy();
  });

  it("counts IPv4 addresses one by one and IPv6 addresses by their /64", () => {
    expect(addressKey("203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:0db8:0001:0002:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(addressKey(undefined)).toBeUndefined();
  });
});

describe("createServer against malformed HTTP/2 requests", () => {
  /** Sends one HTTP/2 request and resolves with its status (0 when the stream was reset). */
  function h2Request(url: string, headers: http2.OutgoingHttpHeaders, body: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const session = http2.connect(url);
      session.on("error", reject);
      let status = 0;
      const req = session.request(headers, { endStream: false });
      req.on("response", (h) => {
        const code = Number(h[":status"]);
        if (code !== 100) status = code;
      });
      req.on("error", () => {});
      req.on("close", () => {
        session.close();
        resolve(status);
      });
      req.resume();
      req.end(body);
    });
  }

  it("issue 9 fuzz: expect 100-continue on a stream reset for its content-length does not end the process", async () => {
    const thrown: unknown[] = [];
    const record = (err: unknown) => thrown.push(err);
    process.on("uncaughtException", record);
    try {
      const server = await start({
        handler: (_req, res) => {
          (res as http.ServerResponse).writeHead(200, { "content-type": "text/plain" });
          res.end("ok");
        },
      });
      const expectContinue = { ":method": "POST", ":path": "/x", expect: "100-continue" };
      // A body shorter than its content-length: the stream is reset before the interim answer could be sent.
      for (let i = 0; i < 10; i++) {
        expect(await h2Request(server.url, { ...expectContinue, "content-length": "100" }, "{}")).toBe(0);
      }
      // A well-formed request that asks for 100-continue still gets it, and its answer.
      expect(await h2Request(server.url, { ...expectContinue, "content-length": "2" }, "{}")).toBe(200);
      expect((await get(`${server.url}/healthz`)).status).toBe(200);
      expect(thrown).toEqual([]);
    } finally {
      process.off("uncaughtException", record);
    }
  });
});
