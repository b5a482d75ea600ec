import type { Transport } from "@connectrpc/connect";
import type { QueryClient } from "@tanstack/react-query";
import type { GatewayTransport } from "./connect/transport.ts";
import { createI18n, type I18n } from "./i18n.ts";
import { createLazyTransport } from "./lazy-transport.ts";
import { loadRuntimeConfig, serviceRestUrl, type ServiceUrls } from "./remote-config.ts";
import { createSessionStore, type SessionStore } from "./session-store.ts";

/** Everything a screen needs from the platform; one per page, shared by the shell and every remote. */
export interface Kit {
  session: SessionStore;
  /** Connect calls, each sent to its service's base URL. */
  transport: Transport;
  /** Makes sure a live token (at least a guest one) is in the session. */
  ensureToken: () => Promise<void>;
  /**
   * A REST call to a service ("user" → <its base URL>/api/user-service<path>) with the session's bearer token,
   * for what Connect does not carry (file uploads, downloads).
   */
  rest: (service: string, path: string, init?: RequestInit) => Promise<Response>;
  /**
   * The page's query client (spec 002 §9 staleness by family), made on the first call. TanStack Query is not part
   * of the first screen: screens that query sit inside <QueryBoundary>, which waits for this.
   */
  loadQueryClient: () => Promise<QueryClient>;
  i18n: I18n;
}

export interface KitOptions {
  /** Where a service's API is unless `services` says otherwise: the page's own origin. */
  baseUrl: string;
  /** Base URL per service (see ServiceUrls), or how to load them (the runtime configuration). */
  services?: ServiceUrls | (() => Promise<ServiceUrls>);
  storage?: Storage | undefined;
  search?: string;
  fetch?: typeof globalThis.fetch;
}

export function createKit({ baseUrl, services = {}, storage, search, fetch }: KitOptions): Kit {
  const session = createSessionStore(storage);
  let urls: Promise<ServiceUrls> | undefined;
  const loadUrls = () => {
    urls ??= typeof services === "function" ? services() : Promise.resolve(services);
    urls.catch(() => (urls = undefined));
    return urls;
  };
  let gateway: Promise<GatewayTransport> | undefined;
  const loadGateway = () => {
    gateway ??= Promise.all([import("./connect/transport.ts"), loadUrls()]).then(
      ([{ createGatewayTransport }, services]) =>
        createGatewayTransport({ baseUrl, services, session, ...(fetch ? { fetch } : {}) }),
    );
    // A failed chunk load (network blip) is tried again on the next call.
    gateway.catch(() => (gateway = undefined));
    return gateway;
  };
  const kit: Kit = {
    session,
    transport: createLazyTransport(async () => (await loadGateway()).transport),
    ensureToken: async () => (await loadGateway()).ensureToken(),
    rest: async (service, path, init) => {
      const headers = new Headers(init?.headers);
      const token = session.getSnapshot().accessToken;
      if (token && !headers.has("Authorization")) headers.set("Authorization", `Bearer ${token.token}`);
      return (fetch ?? globalThis.fetch)(serviceRestUrl(service, path, await loadUrls(), baseUrl), {
        ...init,
        headers,
      });
    },
    // A failed chunk load is tried again on the next call (webpack forgets a chunk that failed).
    loadQueryClient: async () => (await import("./query-provider.tsx")).queryClientOf(kit),
    i18n: createI18n({ search: search ?? "", storage }),
  };
  return kit;
}

let pageKit: Kit | undefined;

/** True for the page's kit (getPageKit), without creating it. */
export function isPageKit(kit: Kit): boolean {
  return kit === pageKit;
}

/**
 * The page's kit. The kit package is a federation singleton, so the shell and every remote that calls
 * this get the same session, query cache and language.
 */
export function getPageKit(): Kit {
  pageKit ??= createKit({
    // The gateway serves the frontends, so by default the API is on the page's own origin.
    baseUrl: window.location.origin,
    // Without a runtime configuration (a remote's own dev server has none) every service is on that origin.
    services: () =>
      loadRuntimeConfig().then(
        (config) => config.services,
        () => ({}),
      ),
    storage: window.localStorage,
    search: window.location.search,
  });
  return pageKit;
}
