import { loadRemote, registerPlugins, registerRemotes } from "@module-federation/enhanced/runtime";
import type { RemoteEntry } from "@tt/web-kit";
import { createRemoteFailurePlugin } from "./remote-failure-plugin.ts";
import type { FederationRuntime } from "./remote-loader.ts";

/** The page's Module Federation runtime (created by the shell's build), seen through our narrow interface. */
export function createFederationRuntime(): FederationRuntime {
  registerPlugins([createRemoteFailurePlugin()]);
  return {
    register: (remotes: RemoteEntry[], force: boolean) =>
      registerRemotes(
        remotes.map(({ name, entry }) => ({ name, entry })),
        { force },
      ),
    load: (id: string) => loadRemote<unknown>(id),
  };
}
