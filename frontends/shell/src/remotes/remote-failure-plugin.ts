import type { ModuleFederationRuntimePlugin } from "@module-federation/enhanced/runtime";

/** Marks a module that stands in for a remote that failed to load. */
export const REMOTE_LOAD_FAILED = Symbol.for("tt.remote-load-failed");

export interface FailedRemoteModule {
  [REMOTE_LOAD_FAILED]: unknown;
}

export function isFailedRemoteModule(value: unknown): value is FailedRemoteModule {
  return typeof value === "object" && value !== null && REMOTE_LOAD_FAILED in value;
}

/**
 * The errorLoadRemote layer. When a remote's container was fetched but its module could not be loaded
 * (onLoad), the runtime would otherwise reject deep inside React's lazy loading with a RUNTIME-xxx code;
 * this answers with a marked stand-in that the loader retries and finally turns into a clear error for
 * the boundary. For the manifest and entry lifecycles the runtime expects a manifest, not a module, so
 * the original error is left to propagate to the same loader.
 */
export function createRemoteFailurePlugin(): ModuleFederationRuntimePlugin {
  return {
    name: "tt-remote-failure",
    errorLoadRemote({ error, lifecycle }) {
      if (lifecycle !== "onLoad") return undefined;
      const failed: FailedRemoteModule = { [REMOTE_LOAD_FAILED]: error };
      return failed;
    },
  };
}
