import { RemoteErrorBoundary, RemoteFallback, type RemoteEntry } from "@tt/web-kit";
import { Suspense, use, useState, type ComponentType } from "react";
import { useTranslation } from "react-i18next";
import { SHELL_NAMESPACE } from "../locales.ts";
import { loadRemoteApp, type FederationRuntime, type LoadOptions } from "./remote-loader.ts";
import { useRemotes } from "./RemotesProvider.tsx";

export interface RemoteOutletProps {
  name: string;
  title: string;
  loadOptions?: LoadOptions;
}

const loads = new WeakMap<RemoteEntry, Map<number, Promise<ComponentType>>>();

/**
 * One load per remote and attempt, kept outside render so that re-rendering the outlet never starts
 * another; a new attempt number (the retry button) is what loads the remote again.
 */
function loadOnce(runtime: FederationRuntime, remote: RemoteEntry, attempt: number, options?: LoadOptions) {
  const attempts = loads.get(remote) ?? new Map<number, Promise<ComponentType>>();
  loads.set(remote, attempts);
  let pending = attempts.get(attempt);
  if (!pending) {
    pending = loadRemoteApp(runtime, remote, options);
    attempts.set(attempt, pending);
  }
  return pending;
}

/** Suspends until the remote's App is loaded; a failed load throws to the boundary around it. */
function LoadedRemote({ load }: { load: Promise<ComponentType> }) {
  const RemoteApp = use(load);
  // A federated remote is a component known only at run time. It is made once per load (loadOnce keeps
  // the promise outside render), so its state survives re-renders, which is what this rule protects.
  // eslint-disable-next-line react-hooks/static-components
  return <RemoteApp />;
}

/** One remote's place in the page: loaded on first visit, with retry, fallback and a retry button. */
export function RemoteOutlet({ name, title, loadOptions }: RemoteOutletProps) {
  const { t } = useTranslation(["common", SHELL_NAMESPACE]);
  const { runtime, remotes, status, retry } = useRemotes();
  const remote = remotes.find((candidate) => candidate.name === name);
  const [attempt, setAttempt] = useState(0);
  const load = remote ? loadOnce(runtime, remote, attempt, loadOptions) : null;

  if (status === "pending") return <p className="tt-loading">{t("remote.loading", { name: title })}</p>;
  if (status === "error") return <RemoteFallback title={title} onRetry={retry} />;
  if (!load) {
    return (
      <p className="tt-card" role="status">
        {t(`${SHELL_NAMESPACE}:remotes.unknown`)}
      </p>
    );
  }
  return (
    <RemoteErrorBoundary title={title} onRetry={() => setAttempt((n) => n + 1)}>
      <Suspense fallback={<p className="tt-loading">{t("remote.loading", { name: title })}</p>}>
        <LoadedRemote load={load} />
      </Suspense>
    </RemoteErrorBoundary>
  );
}
