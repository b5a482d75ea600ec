// Real servers on port 0 for end-to-end tests: the fixture service over Connect (HTTP/1.1 and h2c) and
// the gateway in front of it.
import http2 from "node:http2";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type net from "node:net";
import type { AddressInfo, Socket } from "node:net";
import { createRouterTransport, type Interceptor } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { FixtureService } from "@tt/proto/tt/fixture/v1/fixture_service_pb";
import { createGateway, type Gateway, type GatewayOptions } from "../gateway.ts";
import { fixtureRoutes } from "./fixture-service.ts";

export interface Running {
  /** HTTP/1.1 base URL. */
  url: string;
  /** HTTP/2 (h2c, prior knowledge) base URL of the same handler. */
  h2url: string;
  close(): Promise<void>;
}

type AnyHandler = (
  req: IncomingMessage | http2.Http2ServerRequest,
  res: ServerResponse | http2.Http2ServerResponse,
) => void;

// Node 24 ignores `allowHTTP1` on a cleartext http2 server (it only applies with TLS), so the handler is
// served twice: HTTP/1.1 on one port, h2c on another.
export async function listen(handler: AnyHandler): Promise<Running> {
  const h1 = http.createServer(handler as (req: IncomingMessage, res: ServerResponse) => void);
  const h2 = http2.createServer(handler as (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => void);
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  };
  h1.on("connection", track);
  h2.on("connection", track);
  const port = async (server: net.Server) => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return (server.address() as AddressInfo).port;
  };
  const [p1, p2] = await Promise.all([port(h1), port(h2)]);
  const closeOne = (server: net.Server) => new Promise<void>((resolve) => server.close(() => resolve()));
  return {
    url: `http://127.0.0.1:${p1}`,
    h2url: `http://127.0.0.1:${p2}`,
    close: async () => {
      const done = Promise.all([closeOne(h1), closeOne(h2)]);
      for (const socket of sockets) socket.destroy();
      await done;
    },
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
