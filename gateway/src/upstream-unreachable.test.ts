// Issue 28: an upstream that cannot be reached is `unavailable` (503) everywhere, and a stream cut by an upstream
// ends with that error (README.md, "Errors"). The gateway proxies Connect (and gRPC) calls to a real service over
// HTTP/2 that this test kills mid-stream, or to a port nobody listens on.
import { Code, createClient, type ConnectRouter } from "@connectrpc/connect";
import { connectNodeAdapter, createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import { freePort } from "@tt/kit";
import { FixtureService } from "@tt/proto/tt/fixture/v1/fixture_service_pb";
import { afterEach, describe, expect, it } from "vitest";
import { backendSession, createBackendTransport } from "./backend-transport.ts";
import { UNREACHABLE_MESSAGE } from "./connect-passthrough.ts";
import { createGateway } from "./gateway.ts";
import { listen, startFixtureGateway, type Running } from "./testing/servers.ts";
import { refusalOf } from "@tt/kit/testing";

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A service whose StreamThings sends `count` messages, then stays open until the call or the service ends. */
async function hangingStreamService(): Promise<Running> {
  const routes = (router: ConnectRouter) =>
    router.service(FixtureService, {
      async *streamThings(req, ctx) {
        for (let index = 0; index < req.count; index++) yield { index };
        await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve));
      },
    });
  return listen(connectNodeAdapter({ routes }));
}

const clients = {
  "Connect over HTTP/1.1": (g: Running) =>
    createClient(FixtureService, createConnectTransport({ baseUrl: g.url, httpVersion: "1.1" })),
  "Connect JSON over HTTP/2": (g: Running) =>
    createClient(
      FixtureService,
      createConnectTransport({ baseUrl: g.h2url, httpVersion: "2", useBinaryFormat: false }),
    ),
  gRPC: (g: Running) => createClient(FixtureService, createGrpcTransport({ baseUrl: g.h2url })),
};

describe("a stream cut by a dying upstream", () => {
  it.each(Object.keys(clients) as (keyof typeof clients)[])(
    "%s: ends with a Connect error `unavailable`, not a bare end of stream",
    async (kind) => {
      const upstream = await hangingStreamService();
      closers.push(() => upstream.close());
      const gateway = await startFixtureGateway({ connectBaseUrl: upstream.h2url });
      closers.push(() => gateway.close());
      const got: number[] = [];
      const err = await refusalOf(
        (async () => {
          for await (const m of clients[kind](gateway).streamThings({ count: 2 })) {
            got.push(m.index);
            // The service dies (every connection cut) once the messages are through.
            if (got.length === 2) void upstream.close();
          }
        })(),
      );
      expect(got).toEqual([0, 1]);
      expect([err.code, err.rawMessage]).toEqual([Code.Unavailable, UNREACHABLE_MESSAGE]);
    },
  );
});

describe("a new call to an upstream that cannot be reached", () => {
  async function gatewayToClosedPort() {
    const baseUrl = `http://127.0.0.1:${await freePort()}`;
    const session = backendSession(baseUrl);
    const gateway = createGateway({
      backends: [
        {
          services: [FixtureService],
          transport: createBackendTransport({ baseUrl, session }),
          connect: { baseUrl },
        },
      ],
    });
    const running = await listen(gateway.handler);
    closers.push(async () => {
      gateway.close();
      session.abort();
      await running.close();
    });
    return running;
  }

  it("is 503 / `unavailable` for Connect (unary and streams), gRPC and REST alike", async () => {
    const g = await gatewayToClosedPort();
    for (const kind of Object.keys(clients) as (keyof typeof clients)[]) {
      const client = clients[kind](g);
      const unary = await refusalOf(client.getThing({ id: "a" }));
      expect([kind, unary.code, unary.rawMessage]).toEqual([kind, Code.Unavailable, UNREACHABLE_MESSAGE]);
      const stream = await refusalOf(
        (async () => {
          for await (const _ of client.streamThings({ count: 1 })) void _;
        })(),
      );
      expect([kind, stream.code, stream.rawMessage]).toEqual([kind, Code.Unavailable, UNREACHABLE_MESSAGE]);
    }
    // The same HTTP status for a Connect unary call as for REST: 503, not 502.
    const connect = await fetch(`${g.url}/tt.fixture.v1.FixtureService/GetThing`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ id: "a" }),
    });
    expect([connect.status, await connect.json()]).toEqual([
      503,
      { code: "unavailable", message: UNREACHABLE_MESSAGE },
    ]);
    const rest = await fetch(`${g.url}/api/fixture/things/a`);
    expect(rest.status).toBe(503);
  });
});
