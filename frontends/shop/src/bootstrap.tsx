import { getPageKit, KitProvider } from "@tt/web-kit";
import "@tt/web-kit/tokens.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App.tsx";

// Opening the remote's own page (development, or checking one deployment alone) renders it without the
// shell; inside the shell only ./App is loaded and this file never runs.
const kit = getPageKit();
void kit.ensureToken().catch(() => undefined);

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root");

createRoot(root).render(
  <StrictMode>
    <KitProvider kit={kit}>
      <main className="tt-main">
        <App />
      </main>
    </KitProvider>
  </StrictMode>,
);
