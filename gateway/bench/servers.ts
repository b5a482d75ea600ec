// The benchmark's servers, run in their own process so the load generator does not share their event
// loop. Prints one JSON line with the three base URLs, then serves until killed.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createRouterTransport } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { captureRoutes, createInProcessTransport } from "@tt/kit";
import { FixtureService } from "@tt/proto/tt/fixture/v1/fixture_service_pb";
import { createGateway } from "../src/index.ts";
import { fixtureRoutes } from "../src/testing/fixture-service.ts";

const listen = async (handler: http.RequestListener): Promise<string> => {
  const server = http.createServer({ keepAliveTimeout: 60_000 }, handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

const HELLO = JSON.stringify({ hello: "world" });
const bare = await listen((_req, res) => {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(HELLO);
});

const connect = connectNodeAdapter({ routes: fixtureRoutes });
const direct = await listen(connect);

// All-in-one shape: the kit's in-process transport, no interceptors (the direct server has none either).
const captured = captureRoutes(fixtureRoutes);
const gateway = createGateway({
  backends: [
    {
      services: [FixtureService],
      transport: createInProcessTransport({ methods: captured.methods, interceptors: [] }),
      connect: { handler: connect },
    },
  ],
});
const gw = await listen(gateway.handler as http.RequestListener);

// For comparison: the same gateway over Connect's router transport, which serialises every call.
const viaRouter = createGateway({
  backends: [
    {
      services: [FixtureService],
      transport: createRouterTransport(fixtureRoutes),
      connect: { handler: connect },
    },
  ],
});
const gwRouter = await listen(viaRouter.handler as http.RequestListener);

process.stdout.write(`${JSON.stringify({ bare, direct, gateway: gw, gatewayRouter: gwRouter })}\n`);
