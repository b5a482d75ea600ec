import http from "node:http";
import { Code, ConnectError, createClient, type Transport } from "@connectrpc/connect";
import { connectNodeAdapter, createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import { EchoService } from "@tt/proto/tt/testing/v1/echo_service_pb";
import { Counter, Registry } from "prom-client";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "./logger.ts";
import { createServer, type RunningServer } from "./server.ts";
import { echoImplementation, type EchoProbe } from "./test-support/echo-service.ts";

const logger = createLogger({ service: "kit-server-test", level: "silent" });
const running: RunningServer[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.close();
});

async function start(
  opts: { ready?: () => Promise<boolean>; probe?: EchoProbe; shutdownTimeoutMs?: number; registry?: Registry } = {},
) {
  const server = await createServer({
    handler: connectNodeAdapter({ routes: (router) => router.service(EchoService, echoImplementation(opts.probe)) }),
    port: 0,
    host: "127.0.0.1",
    ready: opts.ready ?? (async () => true),
    logger,
    shutdownTimeoutMs: opts.shutdownTimeoutMs ?? 5_000,
    registry: opts.registry,
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

  it("serves the registry on /metrics in the Prometheus text format", async () => {
    const registry = new Registry();
    new Counter({ name: "kit_test_total", help: "a test counter", registers: [registry] }).inc(3);
    const server = await start({ registry });
    const res = await get(`${server.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.type).toContain("text/plain");
    expect(res.body).toContain("kit_test_total 3");
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
