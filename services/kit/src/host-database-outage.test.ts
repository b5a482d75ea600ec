// Issue 28: a service whose database goes away answers 503 / `unavailable` ("The database is unavailable, try
// again"), not 500, and serves again once the database is back. The echo service on a real host and server reaches
// its PostgreSQL through a TCP relay that the test stops (every connection cut, the port refusing) and starts again.
import { connect, createServer as createTcpServer, type Server, type Socket } from "node:net";
import { Code, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { EchoService } from "@tt/proto/tt/testing/v1/echo_service_pb";
import { Registry } from "prom-client";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createMemoryBus } from "./bus/memory.ts";
import { DATABASE_UNAVAILABLE_MESSAGE } from "./errors.ts";
import { startServiceHost, type ServiceHost } from "./host.ts";
import { createLogger } from "./logger.ts";
import { createServer, type RunningServer } from "./transport/server.ts";
import { echoDefinition } from "./test-support/echo-service.ts";
import { createTestDatabase, createTestTokenIssuer, type TestDatabase } from "./testing/index.ts";
import { refusalOf } from "./testing/refusals.ts";

/** A TCP relay on `port` (0: a free one) to `target`; stop() closes the port and cuts every connection. */
async function startRelay(target: { host: string; port: number }, port = 0) {
  const sockets = new Set<Socket>();
  const server: Server = createTcpServer((inbound) => {
    const outbound = connect(target.port, target.host);
    for (const s of [inbound, outbound]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => {});
    }
    inbound.pipe(outbound).pipe(inbound);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    port: (server.address() as { port: number }).port,
    async stop() {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}

let db: TestDatabase;
let relay: Awaited<ReturnType<typeof startRelay>>;
let host: ServiceHost;
let server: RunningServer;

beforeAll(async () => {
  db = await createTestDatabase(inject("databaseUrl"));
  const url = new URL(db.url);
  relay = await startRelay({ host: url.hostname, port: Number(url.port || 5432) });
  url.host = `127.0.0.1:${relay.port}`;
  const logger = createLogger({ service: "kit-test", level: "silent" });
  const registry = new Registry();
  host = await startServiceHost({
    definitions: [echoDefinition()],
    databaseUrl: url.toString(),
    bus: createMemoryBus(),
    logger,
    env: {},
    keys: (await createTestTokenIssuer()).keys,
    registry,
    allowMissingAccess: true,
  });
  server = await createServer({
    handler: host.handler,
    port: 0,
    host: "127.0.0.1",
    ready: host.ready,
    logger,
    registry,
  });
});

afterAll(async () => {
  await server?.close();
  // Not awaited to the end: after the outage the host's close waits on the ORM's pool (noticed in issue 28's
  // report); the database and the relay are dropped regardless.
  await Promise.race([host?.close(), new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
  await relay?.stop();
  await db?.drop();
});

describe("the database goes away under a running service", () => {
  it("answers 503 unavailable while it is gone, and serves again once it is back", async () => {
    const client = createClient(EchoService, createConnectTransport({ baseUrl: server.url, httpVersion: "1.1" }));
    expect((await client.record({ text: "before" })).count).toBe(1);

    const port = relay.port;
    await relay.stop();
    const err = await refusalOf(client.record({ text: "during" }));
    expect([err.code, err.rawMessage]).toEqual([Code.Unavailable, DATABASE_UNAVAILABLE_MESSAGE]);
    const raw = await fetch(`${server.url}/tt.testing.v1.EchoService/Record`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ text: "during" }),
    });
    expect([raw.status, await raw.json()]).toEqual([
      503,
      { code: "unavailable", message: DATABASE_UNAVAILABLE_MESSAGE },
    ]);

    relay = await startRelay({ host: new URL(db.url).hostname, port: Number(new URL(db.url).port || 5432) }, port);
    await expect
      .poll(
        () =>
          client.record({ text: "after" }).then(
            (r) => r.count,
            () => -1,
          ),
        { timeout: 10_000, interval: 50 },
      )
      .toBe(2);
  });
});
