// Issue 28 finding 5: a service given to the gateway as several replicas (the local distributed runner's
// comma-separated <NAME>_SERVICE_URL) gets its REST calls and its proxied Connect and gRPC calls spread over them, and
// a replica that cannot be reached is skipped, so a dead replica fails no call while another one is up. Real
// fixture services over h2c, one of them stopped during the test, and a port nobody listens on.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";
import { createClient } from "@connectrpc/connect";
import { connectNodeAdapter, createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import { createServiceTransport, freePort } from "@tt/kit";
import { eventually } from "@tt/kit/testing";
import { FixtureService } from "@tt/proto/tt/fixture/v1/fixture_service_pb";
import { afterEach, describe, expect, it } from "vitest";
import { backendUrls, loadGatewayConfig } from "./gateway-config.ts";
import { serviceCatalog } from "./catalog.ts";
import { createGateway } from "./gateway.ts";
import { fixtureRoutes } from "./testing/fixture-service.ts";
import { listen, type Running } from "./testing/servers.ts";

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** The fixture service, counting the calls it serves. */
async function counted(): Promise<Running & { calls: number }> {
  const adapter = connectNodeAdapter({ routes: fixtureRoutes });
  const state = { calls: 0 };
  const running = await listen((req, res) => {
    state.calls++;
    adapter(req as IncomingMessage & Http2ServerRequest, res as ServerResponse & Http2ServerResponse);
  });
  closers.push(() => running.close());
  return {
    ...running,
    get calls() {
      return state.calls;
    },
  };
}

async function gatewayTo(urls: string[]): Promise<Running> {
  const reached = createServiceTransport(urls);
  const gateway = createGateway({
    backends: [
      {
        services: [FixtureService],
        transport: reached.transport,
        connect: reached.replicas ? { replicas: reached.replicas } : { baseUrl: urls[0]! },
      },
    ],
  });
  const running = await listen(gateway.handler);
  closers.push(async () => {
    gateway.close();
    reached.close();
    await running.close();
  });
  return running;
}

/** One REST, one Connect (HTTP/2) and one gRPC call through the gateway; the statuses that are not OK. */
async function callAll(g: Running): Promise<string[]> {
  const failures: string[] = [];
  const rest = await fetch(`${g.url}/api/fixture/things/a`);
  if (rest.status !== 200) failures.push(`REST ${rest.status}`);
  await rest.body?.cancel();
  for (const [kind, transport] of [
    ["Connect", createConnectTransport({ baseUrl: g.h2url, httpVersion: "2" })],
    ["gRPC", createGrpcTransport({ baseUrl: g.h2url })],
  ] as const) {
    try {
      const client = createClient(FixtureService, transport);
      await client.getThing({ id: "a" });
      for await (const _ of client.streamThings({ count: 1 })) void _;
    } catch (err) {
      failures.push(`${kind} ${String(err)}`);
    }
  }
  return failures;
}

describe("a service at several replicas behind the gateway", () => {
  it("spreads REST, Connect and gRPC calls over the replicas and skips one that cannot be reached", async () => {
    const [a, b] = [await counted(), await counted()];
    const down = `http://127.0.0.1:${await freePort()}`;
    const g = await gatewayTo([a.h2url, down, b.h2url]);
    for (let i = 0; i < 4; i++) expect(await callAll(g)).toEqual([]);
    // 4 × (REST + Connect unary and stream + gRPC unary and stream), none lost, both replicas used.
    expect(a.calls + b.calls).toBe(20);
    expect(a.calls).toBeGreaterThanOrEqual(5);
    expect(b.calls).toBeGreaterThanOrEqual(5);
  });

  it("stops sending to a replica that went away, and fails no call while another one is up", async () => {
    const [a, b] = [await counted(), await counted()];
    const g = await gatewayTo([a.h2url, b.h2url]);
    expect(await callAll(g)).toEqual([]);
    await a.close();
    // A call already on its way to the replica when it went away may fail (a client retries `unavailable`); once
    // its connection is seen closed, every call is answered by the other.
    await eventually("a call answered without the stopped replica", async () => (await callAll(g)).length === 0);
    const before = b.calls;
    for (let i = 0; i < 4; i++) expect(await callAll(g)).toEqual([]);
    expect(b.calls - before).toBe(20);
  });
});

describe("the gateway's service URLs", () => {
  const base = Object.fromEntries(
    Object.keys(serviceCatalog).map((name) => [`${name.toUpperCase()}_SERVICE_URL`, `http://${name}:8080`]),
  );

  it("takes every replica's URL comma-separated, and refuses a malformed entry naming the variable", () => {
    const config = loadGatewayConfig({ ...base, SOCIAL_SERVICE_URL: "http://127.0.0.1:1,http://127.0.0.1:2" });
    expect(backendUrls(config).social).toEqual(["http://127.0.0.1:1", "http://127.0.0.1:2"]);
    expect(backendUrls(config).user).toEqual(["http://user:8080"]);
    expect(() => loadGatewayConfig({ ...base, SOCIAL_SERVICE_URL: "http://127.0.0.1:1,ftp://x" })).toThrow(
      /SOCIAL_SERVICE_URL: "ftp:\/\/x" is not an http:\/\/ or https:\/\/ URL/,
    );
    expect(() => loadGatewayConfig({ ...base, SOCIAL_SERVICE_URL: "" })).toThrow(
      /SOCIAL_SERVICE_URL: must be an http:\/\/ or https:\/\/ URL/,
    );
  });
});
