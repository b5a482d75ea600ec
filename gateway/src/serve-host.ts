// A service host's services behind the gateway on a loopback port, as the all-in-one platform serves them: what the
// services' benchmarks send their REST calls through (one place instead of a copy per bench).
import { createServer, type ServiceHost } from "@tt/kit";
import type { Logger } from "pino";
import { createGateway } from "./gateway.ts";

export interface ServedHost {
  /** The gateway's origin (`http://127.0.0.1:<port>`); REST paths start with `/api`. */
  url: string;
  close(): Promise<void>;
}

export async function serveHostThroughGateway(
  host: Pick<ServiceHost, "services" | "transport" | "handler" | "ready">,
  logger: Logger,
): Promise<ServedHost> {
  const gateway = createGateway({
    backends: [{ services: host.services, transport: host.transport, connect: { handler: host.handler } }],
    logger,
  });
  const server = await createServer({
    handler: gateway.handler,
    port: 0,
    host: "127.0.0.1",
    ready: host.ready,
    logger,
  });
  return {
    url: server.url,
    close: async () => {
      await server.close();
      gateway.close();
    },
  };
}
