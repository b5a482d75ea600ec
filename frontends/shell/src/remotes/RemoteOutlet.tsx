import { QueryBoundary, RemoteErrorBoundary, RemoteFallback, useAppTranslation, type RemoteEntry } from "@tt/web-kit";
import { lazy, Suspense, useState, type ComponentType, type LazyExoticComponent } from "react";
import { SHELL_NAMESPACE, shellTranslations } from "../locales.ts";
import { loadRemoteApp, type FederationRuntime, type LoadOptions } from "./remote-loader.ts";
import { useRemotes } from "./RemotesProvider.tsx";

export interface RemoteOutletProps {
  name: string;
  title: string;
  /** The exposed component shown: the remote's App by default. */
  exposed?: string;
  loadOptions?: LoadOptions;
}

type LazyRemote = LazyExoticComponent<ComponentType>;
const lazyRemotes = new WeakMap<RemoteEntry, Map<string, LazyRemote>>();

/**
 * One lazy component per remote and attempt, made outside render so that re-rendering the outlet never
 * starts another load; a new attempt number (the retry button) is what loads the remote again.
 */
function lazyRemote(
  runtime: FederationRuntime,
  remote: RemoteEntry,
  exposed: string,
  attempt: number,
  options?: LoadOptions,
) {
  const attempts = lazyRemotes.get(remote) ?? new Map<string, LazyRemote>();
  lazyRemotes.set(remote, attempts);
  const key = `${exposed}#${attempt}`;
  let component = attempts.get(key);
  if (!component) {
    component = lazy(async () => ({ default: await loadRemoteApp(runtime, remote, options, exposed) }));
    attempts.set(key, component);
  }
  return component;
}

/** One remote's place in the page: loaded on first visit, with retry, fallback and a retry button. */
export function RemoteOutlet({ name, title, exposed = "App", loadOptions }: RemoteOutletProps) {
  const { t } = useAppTranslation(SHELL_NAMESPACE, shellTranslations);
  const { runtime, remotes, status, retry, loadOptions: defaults } = useRemotes();
  const remote = remotes.find((candidate) => candidate.name === name);
  const [attempt, setAttempt] = useState(0);
  const RemoteApp = remote ? lazyRemote(runtime, remote, exposed, attempt, loadOptions ?? defaults) : null;

  if (status === "pending") return <p className="tt-loading">{t("common:remote.loading", { name: title })}</p>;
  if (status === "error") return <RemoteFallback title={title} onRetry={retry} />;
  if (!RemoteApp) {
    return (
      <p className="tt-card" role="status">
        {t("remotes.unknown")}
      </p>
    );
  }
  return (
    <RemoteErrorBoundary title={title} onRetry={() => setAttempt((n) => n + 1)}>
      <Suspense fallback={<p className="tt-loading">{t("common:remote.loading", { name: title })}</p>}>
        <QueryBoundary>
          {/* A federated remote is a component known only at run time. It is made once per load attempt
              (lazyRemote keeps it outside render), so its state survives re-renders, which is what the
              static-components rule protects. */}
          {/* eslint-disable-next-line react-hooks/static-components */}
          <RemoteApp />
        </QueryBoundary>
      </Suspense>
    </RemoteErrorBoundary>
  );
}
