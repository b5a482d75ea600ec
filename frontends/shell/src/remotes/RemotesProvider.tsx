import { loadRuntimeConfig, type RemoteEntry } from "@tt/web-kit";
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
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

/** Tries of /remotes.json after the first before the outlets show their fallback, and the wait before each. */
const CONFIG_RETRIES = 2;
const retryDelay = (failures: number) => Math.min(1000 * 2 ** failures, 30_000);
const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface ConfigState {
  status: RemotesState["status"];
  remotes: RemoteEntry[];
}

/**
 * Fetches /remotes.json and registers its remotes, so that which remotes exist is decided at run time. Once per page
 * (the kit caches the answer), retried twice after 1 and 2 s, then again on `retry()`. A plain effect rather than a
 * query: this is on the first screen, and TanStack Query is not (issue 24).
 */
export function RemotesProvider({
  runtime,
  children,
  loadConfig = fetchRemoteConfig,
  loadOptions,
}: RemotesProviderProps) {
  const [{ status, remotes }, setState] = useState<ConfigState>({ status: "pending", remotes: [] });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let cancelled = false;
    void (async () => {
      for (let failures = 0; ; failures++) {
        try {
          const loaded = await loadConfig();
          if (cancelled) return;
          runtime.register(loaded, false);
          setState({ status: "success", remotes: loaded });
          return;
        } catch {
          if (cancelled) return;
          if (failures >= CONFIG_RETRIES) {
            setState((state) => ({ ...state, status: "error" }));
            return;
          }
          await wait(retryDelay(failures));
          if (cancelled) return;
        }
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [runtime, loadConfig, round]);
  const retry = useCallback(() => {
    setState((state) => ({ ...state, status: "pending" }));
    setRound((n) => n + 1);
  }, []);
  const value = useMemo<RemotesState>(
    () => ({ runtime, remotes, status, retry, loadOptions }),
    [runtime, remotes, status, retry, loadOptions],
  );
  return <RemotesContext value={value}>{children}</RemotesContext>;
}

export function useRemotes(): RemotesState {
  const value = useContext(RemotesContext);
  if (!value) throw new Error("useRemotes must be used inside <RemotesProvider>");
  return value;
}
