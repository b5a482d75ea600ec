import { createRouterTransport, type ConnectRouter } from "@connectrpc/connect";
import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { cleanup, render, type RenderResult } from "@testing-library/react";
import { afterEach } from "vitest";
import type { ReactElement } from "react";
import { createI18n } from "../i18n.ts";
import type { Kit } from "../kit.ts";
import { KitProvider } from "../KitProvider.tsx";
import { createAppQueryClient, setQueryClientOf } from "../query-provider.tsx";
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

/** A test kit's query client is there from the start, for tests to read and seed. */
export interface TestKit extends Kit {
  queryClient: QueryClient;
}

/** A kit like the page's, but over an in-memory Connect server and in-memory storage. */
export function createTestKit({
  routes = () => undefined,
  storage = new MemoryStorage(),
  search = "",
  rest = async () => new Response(null, { status: 404 }),
}: TestKitOptions = {}): TestKit {
  const session = createSessionStore(storage);
  const { transport, ensureToken } = createTransportPair(createRouterTransport(routes), session, (interceptors) =>
    createRouterTransport(routes, { transport: { interceptors } }),
  );
  const queryClient = createAppQueryClient();
  // Tests assert on the first answer; retrying Unavailable would only slow a failing test down.
  queryClient.setDefaultOptions({ queries: { retry: false }, mutations: { retry: false } });
  const kit: TestKit = {
    session,
    transport,
    ensureToken,
    rest,
    queryClient,
    loadQueryClient: async () => queryClient,
    i18n: createI18n({ search, storage }),
  };
  // <QueryBoundary> gives the screens this same client.
  setQueryClientOf(kit, queryClient);
  return kit;
}

/**
 * Renders `ui` inside the kit's provider and, for a test kit, its query client's (what <QueryBoundary> gives the
 * screens on the page), so a screen renders at once; a page kit (createKit) gets no query client here.
 */
export function renderWithKit(ui: ReactElement): RenderResult & { kit: TestKit };
export function renderWithKit<K extends Kit>(ui: ReactElement, kit: K): RenderResult & { kit: K };
export function renderWithKit(ui: ReactElement, kit: Kit = createTestKit()): RenderResult & { kit: Kit } {
  const queryClient = "queryClient" in kit ? (kit as TestKit).queryClient : undefined;
  return {
    kit,
    ...render(
      <KitProvider kit={kit}>
        {queryClient ? <QueryClientProvider client={queryClient}>{ui}</QueryClientProvider> : ui}
      </KitProvider>,
    ),
  };
}
