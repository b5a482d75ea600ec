import { useQuery } from "@tanstack/react-query";
import { loadRuntimeConfig, type RemoteEntry } from "@tt/web-kit";
import { createContext, useContext, useMemo, type ReactNode } from "react";
import type { FederationRuntime, LoadOptions } from "./remote-loader.ts";

export interface RemotesState {
  runtime: FederationRuntime;
  remotes: RemoteEntry[];
  status: "pending" | "error" | "success";
  retry: () => void;
  loadOptions: LoadOptions | undefined;
}

const RemotesContext = createContext<RemotesState | null>(null);

/** The remotes of /remotes.json, fetched once for the page: the kit reads its service URLs from the same answer. */
export async function fetchRemoteConfig(): Promise<RemoteEntry[]> {
  return (await loadRuntimeConfig()).remotes;
}

export interface RemotesProviderProps {
  runtime: FederationRuntime;
  children: ReactNode;
  /** Where the configuration comes from; /remotes.json on the page's origin by default. */
  loadConfig?: () => Promise<RemoteEntry[]>;
  /** How hard each remote is retried before its fallback shows. */
  loadOptions?: LoadOptions;
}

/** Fetches /remotes.json and registers its remotes, so that which remotes exist is decided at run time. */
export function RemotesProvider({
  runtime,
  children,
  loadConfig = fetchRemoteConfig,
  loadOptions,
}: RemotesProviderProps) {
  const query = useQuery({
    queryKey: ["remotesConfig"],
    queryFn: async () => {
      const remotes = await loadConfig();
      runtime.register(remotes, false);
      return remotes;
    },
    staleTime: Infinity,
    retry: 2,
  });
  const { data, status, refetch } = query;
  const value = useMemo<RemotesState>(
    () => ({ runtime, remotes: data ?? [], status, retry: () => void refetch(), loadOptions }),
    [runtime, data, status, refetch, loadOptions],
  );
  return <RemotesContext value={value}>{children}</RemotesContext>;
}

export function useRemotes(): RemotesState {
  const value = useContext(RemotesContext);
  if (!value) throw new Error("useRemotes must be used inside <RemotesProvider>");
  return value;
}
