// The web kit's public surface. It is a federation singleton: the shell and every remote share one copy.
// Everything here is light enough for the first page load; Connect lives in @tt/web-kit/connect.
export { errorCode, errorText, GENERIC_ERROR_TEXT, httpStatusOfCode, isConnectError } from "./error-text.ts";
export {
  addTranslations,
  createI18n,
  DEFAULT_LANGUAGE,
  detectLanguage,
  LANGUAGE_NAMES,
  LOCALE_STORAGE_KEY,
  SUPPORTED_LANGUAGES,
  toLanguage,
} from "./i18n.ts";
export type { I18n, I18nOptions, Language, TFunction, TranslateOptions, Translations } from "./i18n.ts";
export { createKit, getPageKit } from "./kit.ts";
export type { Kit, KitOptions } from "./kit.ts";
export { KitProvider, QueryBoundary, useAppTranslation, useErrorText, useKit, useSession } from "./KitProvider.tsx";
export type { SessionState } from "./KitProvider.tsx";
export { createLazyTransport } from "./lazy-transport.ts";
export {
  FeatureUnavailableError,
  isFeatureUnavailable,
  isPlausiblePhoneNumber,
  normalisePhoneNumber,
} from "./phone-number.ts";
export { CRATE_IMPORT_REFETCH_INTERVAL, PAGE_SIZE, queryKeys, shouldRetry, STALE_TIME } from "./query-client.ts";
export {
  loadRuntimeConfig,
  parseRemoteConfig,
  parseRuntimeConfig,
  REMOTES_CONFIG_PATH,
  serviceBaseUrl,
  serviceNameOf,
  serviceRestUrl,
} from "./remote-config.ts";
export type { RemoteEntry, RuntimeConfig, ServiceUrls } from "./remote-config.ts";
export { RemoteErrorBoundary, RemoteFallback } from "./RemoteErrorBoundary.tsx";
export { renderStandalone } from "./render-standalone.tsx";
export type { RemoteErrorBoundaryProps, RemoteFallbackProps } from "./RemoteErrorBoundary.tsx";
export {
  createSessionStore,
  isSignedIn,
  isTokenLive,
  SESSION_STORAGE_KEY,
  useSessionSnapshot,
} from "./session-store.ts";
export type { SessionSnapshot, SessionStore, SessionUser, StoredToken, TokenType } from "./session-store.ts";
// The shared player (spec 002 §4, §8, §9): its code is fetched when a screen first shows it, hls.js on the first
// HLS play; the headless controller through loadPlayer().
export * from "./player/public.ts";
// Analytics events to the audit service (spec 002 §7): queued, sent in batches, never blocking the page.
export * from "./analytics/index.ts";
// The colour theme (dark, light or the system's) and the toast queue: light, so the shell's first page has them.
export { applyTheme, getThemeChoice, resolvedTheme, setThemeChoice, THEME_STORAGE_KEY, useTheme } from "./theme.ts";
export type { ThemeChoice } from "./theme.ts";
export { currentToasts, dismissToast, subscribeToasts, toast } from "./toast.ts";
export type { ToastMessage, ToastTone } from "./toast.ts";
