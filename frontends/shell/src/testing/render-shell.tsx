import { render, screen } from "@testing-library/react";
import type { RemoteEntry } from "@tt/web-kit";
import { KitProvider, type Kit } from "@tt/web-kit";
import { createTestKit } from "@tt/web-kit/testing";
import type { ComponentType } from "react";
import { memoryLocation } from "wouter/memory-location";
import { App } from "../App.tsx";
// The signed-in header is a lazy chunk on the page; loaded here with the helper, so a test's first render of it does
// not wait for its first transform (which, on a busy machine, can take longer than Testing Library's one second).
import "../auth/AccountMenu.tsx";
import type { FederationRuntime } from "../remotes/remote-loader.ts";
import { RemotesProvider } from "../remotes/RemotesProvider.tsx";
import { Router } from "../router.tsx";

/**
 * An in-memory federation runtime: remotes listed in `apps` load, the rest fail the way an unreachable
 * remote does. `apps` can be changed between attempts to bring a remote back.
 */
export function createTestRuntime(apps: Record<string, ComponentType>) {
  const registered: Array<{ names: string[]; force: boolean }> = [];
  const runtime: FederationRuntime = {
    register: (remotes, force) => void registered.push({ names: remotes.map((remote) => remote.name), force }),
    load: async (id) => {
      const name = id.split("/")[0] ?? "";
      const app = apps[name];
      if (!app) throw new Error(`[ Federation Runtime ]: RUNTIME-008 failed to load remote ${name}`);
      return { App: app };
    },
  };
  return { runtime, registered, apps };
}

export const TEST_REMOTES: RemoteEntry[] = ["room", "crates", "shop", "admin"].map((name) => ({
  name,
  entry: `/remotes/${name}/mf-manifest.json`,
}));

export interface RenderShellOptions {
  path?: string;
  kit?: Kit;
  runtime?: FederationRuntime;
  remotes?: RemoteEntry[];
}

export function renderShell({
  path = "/",
  kit = createTestKit(),
  runtime = createTestRuntime({}).runtime,
  remotes = TEST_REMOTES,
}: RenderShellOptions = {}) {
  // As on the page: no query provider around the app, only the shell's own boundaries, so a first screen that
  // queries fails here as it would in the browser.
  return {
    kit,
    ...render(
      <KitProvider kit={kit}>
        <RemotesProvider
          runtime={runtime}
          loadConfig={async () => remotes}
          loadOptions={{ attempts: 2, backoff: () => 0 }}
        >
          <Router hook={memoryLocation({ path }).hook}>
            <App />
          </Router>
        </RemotesProvider>
      </KitProvider>,
    ),
  };
}

/**
 * Opens the header's account menu. The menu comes in a lazy chunk with the design system's components, which the
 * first test of a worker imports (and transforms) cold: it may take longer than Testing Library's default second.
 */
export async function openAccountMenu(user: { click(element: Element): Promise<void> }): Promise<void> {
  const chip = await screen.findByRole("button", { name: /^Account menu for / }, { timeout: 10_000 });
  await user.click(chip);
  await screen.findByRole("menu");
}
