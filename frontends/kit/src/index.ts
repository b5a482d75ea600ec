// The web kit's public surface. It is a federation singleton: the shell and every remote share one copy.
export { errorCode, errorText, GENERIC_ERROR_TEXT, httpStatusOfCode } from "./error-text.ts";
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
export type { Language, Translations, I18nOptions } from "./i18n.ts";
export { createKit, getPageKit } from "./kit.ts";
export type { Kit, KitOptions } from "./kit.ts";
export { KitProvider, useAppTranslation, useClient, useErrorText, useKit, useSession } from "./KitProvider.tsx";
export type { SessionState } from "./KitProvider.tsx";
export {
  FeatureUnavailableError,
  isPlausiblePhoneNumber,
  normalisePhoneNumber,
  sendPhoneCode,
  verifyPhoneCode,
} from "./phone-auth.ts";
export {
  createAppQueryClient,
  CRATE_IMPORT_REFETCH_INTERVAL,
  PAGE_SIZE,
  queryKeys,
  shouldRetry,
  STALE_TIME,
} from "./query-client.ts";
export { RemoteErrorBoundary, RemoteFallback } from "./RemoteErrorBoundary.tsx";
export type { RemoteErrorBoundaryProps, RemoteFallbackProps } from "./RemoteErrorBoundary.tsx";
export {
  createSessionStore,
  isSignedIn,
  isTokenLive,
  SESSION_STORAGE_KEY,
  useSessionSnapshot,
} from "./session-store.ts";
export type { SessionSnapshot, SessionStore, SessionUser, StoredToken, TokenType } from "./session-store.ts";
export { toSessionUser, toStoredToken } from "./token.ts";
export {
  createBearerInterceptor,
  createGatewayTransport,
  createGuestTokenSource,
  createTransportPair,
} from "./transport.ts";
export type { GatewayTransport, GatewayTransportOptions } from "./transport.ts";
export { parseRemoteConfig, REMOTES_CONFIG_PATH } from "./remote-config.ts";
export type { RemoteEntry } from "./remote-config.ts";
