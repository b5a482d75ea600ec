// TanStack Query's side of the kit, its own chunk: the shell's first screen makes no query, so the library is loaded
// after it (issue 24: 13 KB gzip off the first load), by the kit's loadQueryClient() and <QueryBoundary>.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import type { Kit } from "./kit.ts";
import { setLoadedQueryProvider, useKit } from "./KitProvider.tsx";
import { shouldRetry, STALE_TIME } from "./query-client.ts";

export function createAppQueryClient(): QueryClient {
  const client = new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
  client.setQueryDefaults(["session"], { staleTime: STALE_TIME.session });
  client.setQueryDefaults(["profile"], { staleTime: STALE_TIME.profile });
  client.setQueryDefaults(["crates"], { staleTime: STALE_TIME.crates });
  client.setQueryDefaults(["recentSongs"], { staleTime: STALE_TIME.recentSongs });
  client.setQueryDefaults(["chatToken"], { staleTime: STALE_TIME.chatToken, gcTime: STALE_TIME.chatToken });
  client.setQueryDefaults(["avatars"], { staleTime: STALE_TIME.avatars, gcTime: STALE_TIME.avatars });
  client.setQueryDefaults(["media"], { staleTime: STALE_TIME.media, gcTime: STALE_TIME.media });
  // Spec 002 §9: the token balance refetches on window focus.
  client.setQueryDefaults(["tokenBalance"], { refetchOnWindowFocus: "always" });
  client.setQueryDefaults(["adminList"], { staleTime: STALE_TIME.adminList });
  return client;
}

const clients = new WeakMap<Kit, QueryClient>();

/** The kit's query client (kit.loadQueryClient()), made on first use. */
export function queryClientOf(kit: Kit): QueryClient {
  let client = clients.get(kit);
  if (!client) {
    client = createAppQueryClient();
    clients.set(kit, client);
  }
  return client;
}

/** A test kit brings its own client, made before any screen asks for it. */
export function setQueryClientOf(kit: Kit, client: QueryClient): void {
  clients.set(kit, client);
}

/** What <QueryBoundary> renders once this chunk is loaded: the kit's query client for everything inside. */
export default function QueryProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClientOf(useKit())}>{children}</QueryClientProvider>;
}

setLoadedQueryProvider(QueryProvider);
