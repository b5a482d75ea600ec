import { renderStandalone } from "@tt/web-kit";
import "@tt/web-kit/tokens.css";
import { App } from "./App.tsx";

renderStandalone(App);
