// Measures what the in-process transport buys the gateway in all-in-one mode: the same echo call with a
// verified token, through the in-process transport, Connect's router transport, and over the network.
// Run: DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --experimental-transform-types services/kit/bench/transport.ts (npm run bench:transport)
import { createClient, createRouterTransport, type Transport } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import { EchoService } from "@tt/proto/tt/testing/v1/echo_service_pb";
import { createMemoryBus } from "../src/bus/memory.ts";
import { startServiceHost } from "../src/host.ts";
import { createLogger } from "../src/logger.ts";
import { createServer } from "../src/transport/server.ts";
import { echoDefinition, echoImplementation } from "../src/test-support/echo-service.ts";
import { createTestDatabase, createTestTokenIssuer } from "../src/testing/index.ts";

const calls = Number(process.env.CALLS ?? 5000);
const concurrency = Number(process.env.CONCURRENCY ?? 16);
const logger = createLogger({ service: "bench", level: "silent" });
const db = await createTestDatabase(process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
const bus = createMemoryBus();
const issuer = await createTestTokenIssuer();
const host = await startServiceHost({
  definitions: [echoDefinition()],
  databaseUrl: db.url,
  bus,
  logger,
  env: {},
  keys: issuer.keys,
  allowMissingAccess: true,
});
const server = await createServer({ handler: host.handler, port: 0, host: "127.0.0.1", ready: host.ready, logger });
const headers = { authorization: `Bearer ${await issuer.sign()}` };

async function measure(name: string, transport: Transport): Promise<number> {
  const client = createClient(EchoService, transport);
  for (let i = 0; i < 200; i++) await client.echo({ text: "warm" }, { headers });
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < calls) await client.echo({ text: "bench" }, { headers });
    }),
  );
  const perSecond = calls / ((performance.now() - started) / 1000);
  console.log(`${name.padEnd(34)} ${Math.round(perSecond).toString().padStart(7)} calls/s`);
  return perSecond;
}

const inProcess = await measure("in-process transport", host.transport);
await measure(
  "router transport (same chain)",
  createRouterTransport((r) => r.service(EchoService, echoImplementation()), {
    router: { interceptors: [...host.interceptors] },
  }),
);
const h1 = await measure(
  "Connect JSON over HTTP/1.1",
  createConnectTransport({ baseUrl: server.url, httpVersion: "1.1" }),
);
await measure(
  "Connect binary over HTTP/2 (h2c)",
  createConnectTransport({ baseUrl: server.url, httpVersion: "2", useBinaryFormat: true }),
);
await measure("gRPC over HTTP/2 (h2c)", createGrpcTransport({ baseUrl: server.url }));
console.log(
  `in-process / Connect HTTP/1.1: ${(inProcess / h1).toFixed(1)}x (calls=${calls}, concurrency=${concurrency})`,
);

await server.close();
await host.close();
await bus.close();
await db.drop();
