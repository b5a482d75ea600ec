// The bus of the all-in-one process: NATS_URL when given; else a real `nats-server` from the PATH started
// as a child process with JetStream; else the in-process adapter (same contract, this process only).
import { createMemoryBus, createNatsBus } from "@tt/kit";
import type { Bus } from "@tt/kit";
import type { Logger } from "pino";
import { startNatsServer } from "./distributed-process.ts";

export interface BusHandle {
  bus: Bus;
  /** Where it runs, for the start-up line: a URL, or "in-process". */
  description: string;
  close(): Promise<void>;
}

export async function openBus(opts: {
  natsUrl?: string;
  storeDir: string;
  logger: Logger;
  /** DEPLOYMENT_NAME: the names this deployment's services have on NATS (and the in-process bus). */
  deployment: string;
}): Promise<BusHandle> {
  const { natsUrl, storeDir, logger, deployment } = opts;
  if (natsUrl) {
    const bus = await createNatsBus({ url: natsUrl, name: "all-in-one", logger, deployment });
    return { bus, description: natsUrl, close: () => bus.close() };
  }
  const server = await startNatsServer(storeDir, logger);
  if (server) {
    const bus = await createNatsBus({ url: server.url, name: "all-in-one", logger, deployment });
    return {
      bus,
      description: `${server.url} (nats-server started by this process)`,
      close: async () => {
        await bus.close();
        await server.handle.stop(5_000);
      },
    };
  }
  logger.warn("no NATS_URL and no nats-server on the PATH: using the in-process bus (this process only)");
  const bus = createMemoryBus({ deployment });
  return { bus, description: "in-process", close: () => bus.close() };
}
