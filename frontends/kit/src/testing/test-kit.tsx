import { createRouterTransport, type ConnectRouter } from "@connectrpc/connect";
import { cleanup, render, type RenderResult } from "@testing-library/react";
import { afterEach } from "vitest";
import type { ReactElement } from "react";
import { createI18n } from "../i18n.ts";
import type { Kit } from "../kit.ts";
import { KitProvider } from "../KitProvider.tsx";
import { createAppQueryClient } from "../query-client.ts";
import { createSessionStore } from "../session-store.ts";
import { createTransportPair } from "../connect/transport.ts";
import { MemoryStorage } from "./memory-storage.ts";

// vitest runs without globals, so Testing Library cannot register its own clean-up between tests.
afterEach(cleanup);

export interface TestKitOptions {
  /** The services the screen talks to: a small real implementation, served by Connect's router transport. */
  routes?: (router: ConnectRouter) => void;
  storage?: Storage;
  search?: string;
  /** What the kit's REST calls answer; 404 by default. */
  rest?: Kit["rest"];
}

/** A kit like the page's, but over an in-memory Connect server and in-memory storage. */
export function createTestKit({
  routes = () => undefined,
  storage = new MemoryStorage(),
  search = "",
  rest = async () => new Response(null, { status: 404 }),
}: TestKitOptions = {}): Kit {
  const session = createSessionStore(storage);
  const { transport, ensureToken } = createTransportPair(createRouterTransport(routes), session, (interceptors) =>
    createRouterTransport(routes, { transport: { interceptors } }),
  );
  const queryClient = createAppQueryClient();
  // Tests assert on the first answer; retrying Unavailable would only slow a failing test down.
  queryClient.setDefaultOptions({ queries: { retry: false }, mutations: { retry: false } });
  return { session, transport, ensureToken, rest, queryClient, i18n: createI18n({ search, storage }) };
}

export function renderWithKit(ui: ReactElement, kit: Kit = createTestKit()): RenderResult & { kit: Kit } {
  return { kit, ...render(<KitProvider kit={kit}>{ui}</KitProvider>) };
}
