import { getPageKit, KitProvider } from "@tt/web-kit";
import "@tt/web-kit/tokens.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { App } from "./App.tsx";
import { createFederationRuntime } from "./remotes/federation-runtime.ts";
import { RemotesProvider } from "./remotes/RemotesProvider.tsx";
import "./shell.css";

const kit = getPageKit();
// Browsing needs a token (spec 002 §6); a guest one is fetched in the background when there is none.
void kit.ensureToken().catch(() => undefined);

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root");

createRoot(root).render(
  <StrictMode>
    <KitProvider kit={kit}>
      <RemotesProvider runtime={createFederationRuntime()}>
        <BrowserRouter>
          <App />
        </BrowserRouter>
      </RemotesProvider>
    </KitProvider>
  </StrictMode>,
);
