import type { RemoteEntry } from "@tt/web-kit";
import type { ComponentType } from "react";
import { isFailedRemoteModule } from "./remote-failure-plugin.ts";

/** What the shell needs from Module Federation's runtime; tests give it an in-memory one. */
export interface FederationRuntime {
  register(remotes: RemoteEntry[], force: boolean): void;
  load(id: string): Promise<unknown>;
}

export class RemoteUnavailableError extends Error {
  constructor(
    readonly remote: string,
    options?: { cause?: unknown },
  ) {
    super(`The remote "${remote}" could not be loaded`, options);
    this.name = "RemoteUnavailableError";
  }
}

export interface LoadOptions {
  /** Attempts in all, the first included. */
  attempts?: number;
  /** Wait before the nth retry, in ms. */
  backoff?: (retry: number) => number;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The retry layer, for one exposed component of a remote (its `App` by default; the room remote also exposes
 * `LiveNow` for the home page): a remote whose server hiccups (a deploy in progress, a dropped connection) gets a few
 * more tries with back-off before the boundary shows the fallback. Each retry registers the remote again
 * with force, because the runtime caches the failed container.
 */
export async function loadRemoteApp(
  runtime: FederationRuntime,
  remote: RemoteEntry,
  { attempts = 3, backoff = (retry) => 250 * 2 ** (retry - 1) }: LoadOptions = {},
  exposed = "App",
): Promise<ComponentType> {
  let lastError: unknown;
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (attempt > 0) {
      await wait(backoff(attempt));
      runtime.register([remote], true);
    }
    try {
      const module = await runtime.load(`${remote.name}/${exposed}`);
      if (isFailedRemoteModule(module)) throw new RemoteUnavailableError(remote.name, { cause: module });
      const app = (module as Record<string, unknown> | null | undefined)?.[exposed];
      if (typeof app !== "function") throw new RemoteUnavailableError(remote.name, { cause: `no ${exposed} export` });
      return app as ComponentType;
    } catch (error) {
      lastError = error;
    }
  }
  throw new RemoteUnavailableError(remote.name, { cause: lastError });
}
