import { StrictMode, Suspense, type ComponentType } from "react";
import { createRoot } from "react-dom/client";
import { getPageKit } from "./kit.ts";
import { KitProvider, QueryBoundary } from "./KitProvider.tsx";

/**
 * Renders a remote on its own page, without the shell (development, or checking one deployment alone);
 * inside the shell only the remote's ./App is loaded and its bootstrap never runs.
 */
export function renderStandalone(App: ComponentType): void {
  const kit = getPageKit();
  void kit.ensureToken().catch(() => undefined);
  const root = document.getElementById("root");
  if (!root) throw new Error("index.html has no #root");
  createRoot(root).render(
    <StrictMode>
      <KitProvider kit={kit}>
        <main className="tt-main">
          <Suspense fallback={null}>
            <QueryBoundary>
              <App />
            </QueryBoundary>
          </Suspense>
        </main>
      </KitProvider>
    </StrictMode>,
  );
}
