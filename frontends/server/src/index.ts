// Node side of the frontends: mounted by the gateway in all-in-one mode (staticHandler option).
export { createFrontendHandler } from "./frontend-handler.ts";
export type { FrontendHandler, FrontendHandlerOptions, RemoteEntry } from "./frontend-handler.ts";
export { buildFrontendsIfStale } from "./build-if-stale.ts";
export { chromiumLaunchOptions } from "./chromium.ts";
export type { BuildOptions, BuildResult } from "./build-if-stale.ts";
