// Node side of the frontends: mounted by the gateway in all-in-one mode (staticHandler option).
export { createFrontendHandler } from "./frontend-handler.ts";
export type { FrontendHandler, FrontendHandlerOptions, RemoteEntry } from "./frontend-handler.ts";
export { buildFrontendsIfStale, startWebBuild } from "./build-if-stale.ts";
export { chromiumLaunchOptions, headlessShellLaunchOptions } from "./chromium.ts";
export type { BuildOptions, BuildResult, WebBuild } from "./build-if-stale.ts";
export {
  AGORA_SOURCES,
  contentSecurityPolicy,
  loadContentSecurityOptions,
  pageSecurityHeaders,
  strictTransportSecurity,
  EXTRA_DIRECTIVES,
  PLAYER_NAMES,
  PLAYER_SOURCES,
} from "./security-headers.ts";
export type { ContentSecurityOptions, ExtraDirective, PlayerName } from "./security-headers.ts";
