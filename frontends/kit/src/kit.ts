import type { Transport } from "@connectrpc/connect";
import type { QueryClient } from "@tanstack/react-query";
import type { i18n as I18n } from "i18next";
import type { GatewayTransport } from "./connect/transport.ts";
import { createI18n } from "./i18n.ts";
import { createLazyTransport } from "./lazy-transport.ts";
import { createAppQueryClient } from "./query-client.ts";
import { createSessionStore, type SessionStore } from "./session-store.ts";

/** Everything a screen needs from the platform; one per page, shared by the shell and every remote. */
export interface Kit {
  session: SessionStore;
  transport: Transport;
  /** Makes sure a live token (at least a guest one) is in the session. */
  ensureToken: () => Promise<void>;
  queryClient: QueryClient;
  i18n: I18n;
}

export interface KitOptions {
  baseUrl: string;
  storage?: Storage | undefined;
  search?: string;
  fetch?: typeof globalThis.fetch;
}

export function createKit({ baseUrl, storage, search, fetch }: KitOptions): Kit {
  const session = createSessionStore(storage);
  let gateway: Promise<GatewayTransport> | undefined;
  const loadGateway = () => {
    gateway ??= import("./connect/transport.ts").then(({ createGatewayTransport }) =>
      createGatewayTransport({ baseUrl, session, ...(fetch ? { fetch } : {}) }),
    );
    return gateway;
  };
  return {
    session,
    transport: createLazyTransport(async () => (await loadGateway()).transport),
    ensureToken: async () => (await loadGateway()).ensureToken(),
    queryClient: createAppQueryClient(),
    i18n: createI18n({ search: search ?? "", storage }),
  };
}

let pageKit: Kit | undefined;

/**
 * The page's kit. The kit package is a federation singleton, so the shell and every remote that calls
 * this get the same session, query cache and language.
 */
export function getPageKit(): Kit {
  pageKit ??= createKit({
    // The gateway serves the frontends, so the API is on the page's own origin.
    baseUrl: window.location.origin,
    storage: window.localStorage,
    search: window.location.search,
  });
  return pageKit;
}
