import { applyTheme, getPageKit, KitProvider } from "@tt/web-kit";
import "@tt/web-kit/tokens.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { PageViews } from "./analytics/PageViews.tsx";
import { App } from "./App.tsx";
import { createFederationRuntime } from "./remotes/federation-runtime.ts";
import { RemotesProvider } from "./remotes/RemotesProvider.tsx";
import "./shell.css";

applyTheme();
const kit = getPageKit();

// Browsing needs a token (spec 002 §6): a guest one is fetched when there is none — after the first
// paint, because it brings Connect and the generated clients, which the first screen does not need.
// TanStack Query follows (every screen but the first one queries, issue 24), after the token rather than beside it,
// so that the first paint shares the main thread with no more than it did.
const getTokenSoon = () =>
  setTimeout(() => {
    void kit
      .ensureToken()
      .catch(() => undefined)
      .then(() => kit.loadQueryClient())
      .catch(() => undefined);
  }, 0);
if (document.readyState === "complete") getTokenSoon();
else window.addEventListener("load", getTokenSoon, { once: true });

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root");

createRoot(root).render(
  <StrictMode>
    <KitProvider kit={kit}>
      <RemotesProvider runtime={createFederationRuntime()}>
        {/* No router provider: the routes read the browser's location (wouter's default). */}
        <App />
        <PageViews />
      </RemotesProvider>
    </KitProvider>
  </StrictMode>,
);
