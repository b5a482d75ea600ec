// Real servers on port 0 for end-to-end tests: the fixture service over Connect (HTTP/2 with HTTP/1.1
// fallback) and the gateway in front of it.
import http2 from "node:http2";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { createRouterTransport, type Interceptor } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { FixtureService } from "@tt/proto/tt/fixture/v1/fixture_service_pb";
import { createGateway, type Gateway, type GatewayOptions } from "../gateway.ts";
import { fixtureRoutes } from "./fixture-service.ts";

export interface Running {
  url: string;
  close(): Promise<void>;
}

type AnyHandler = (
  req: IncomingMessage | http2.Http2ServerRequest,
  res: ServerResponse | http2.Http2ServerResponse,
) => void;

export async function listen(handler: AnyHandler): Promise<Running> {
  const server = http2.createServer(
    { allowHTTP1: true } as http2.ServerOptions,
    handler as (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => void,
  );
  const sockets = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on("session", (s) => {
    sessions.add(s);
    s.on("close", () => sessions.delete(s));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sessions) s.close();
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

/** The fixture service alone, as a distributed backend would run it. */
export function startFixtureServer(): Promise<Running> {
  return listen(connectNodeAdapter({ routes: fixtureRoutes }));
}

export interface GatewayUnderTest extends Running {
  gateway: Gateway;
}

/** The gateway with the fixture service in process (all-in-one shape), on a real port. */
export async function startFixtureGateway(
  options: Partial<GatewayOptions> & { interceptors?: Interceptor[]; connectBaseUrl?: string } = {},
): Promise<GatewayUnderTest> {
  const { interceptors = [], connectBaseUrl, ...rest } = options;
  const gateway = createGateway({
    backends: [
      {
        services: [FixtureService],
        transport: createRouterTransport(fixtureRoutes, { router: { interceptors } }),
        connect: connectBaseUrl
          ? { baseUrl: connectBaseUrl }
          : { handler: connectNodeAdapter({ routes: fixtureRoutes, interceptors }) },
      },
    ],
    ...rest,
  });
  const running = await listen(gateway.handler);
  return {
    ...running,
    gateway,
    close: async () => {
      gateway.close();
      await running.close();
    },
  };
}
