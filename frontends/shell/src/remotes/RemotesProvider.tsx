import { useQuery } from "@tanstack/react-query";
import { parseRemoteConfig, REMOTES_CONFIG_PATH, type RemoteEntry } from "@tt/web-kit";
import { createContext, useContext, useMemo, type ReactNode } from "react";
import type { FederationRuntime } from "./remote-loader.ts";

export interface RemotesState {
  runtime: FederationRuntime;
  remotes: RemoteEntry[];
  status: "pending" | "error" | "success";
  retry: () => void;
}

const RemotesContext = createContext<RemotesState | null>(null);

async function fetchRemoteConfig(url: string): Promise<RemoteEntry[]> {
  const response = await fetch(url, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return parseRemoteConfig(await response.json());
}

export interface RemotesProviderProps {
  runtime: FederationRuntime;
  children: ReactNode;
  configUrl?: string;
}

/** Fetches /remotes.json and registers its remotes, so that which remotes exist is decided at run time. */
export function RemotesProvider({ runtime, children, configUrl = REMOTES_CONFIG_PATH }: RemotesProviderProps) {
  const query = useQuery({
    queryKey: ["remotesConfig", configUrl],
    queryFn: async () => {
      const remotes = await fetchRemoteConfig(configUrl);
      runtime.register(remotes, false);
      return remotes;
    },
    staleTime: Infinity,
    retry: 2,
  });
  const { data, status, refetch } = query;
  const value = useMemo<RemotesState>(
    () => ({ runtime, remotes: data ?? [], status, retry: () => void refetch() }),
    [runtime, data, status, refetch],
  );
  return <RemotesContext value={value}>{children}</RemotesContext>;
}

export function useRemotes(): RemotesState {
  const value = useContext(RemotesContext);
  if (!value) throw new Error("useRemotes must be used inside <RemotesProvider>");
  return value;
}
