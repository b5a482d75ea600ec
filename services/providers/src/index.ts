// What the services that talk to outside providers share (issue 27: out of the service kit, which every service
// loads, into a package of its own that only these import): HTTP to a provider and the ProviderError it fails with,
// mapped to Connect codes in one place; the Apple Music developer token the web player is configured with; which
// links are music links (spec 002 §5); and CometChat's REST client, which the user and room services both call.
export { callProvider, ProviderError, toConnectProviderError } from "./provider-errors.ts";
export type { ProviderErrorKind, ProviderFailureWords } from "./provider-errors.ts";
export {
  basicAuth,
  DEFAULT_PROVIDER_TIMEOUT_MS,
  errorFromResponse,
  isRecord,
  isUnauthorized,
  optionalString,
  requestJson,
  requireString,
  send as sendProviderRequest,
  withTokenRefresh,
} from "./provider-http.ts";
export type { ProviderRequest, ProviderResponse, TokenRefreshOptions, TokenRefreshResult } from "./provider-http.ts";
export {
  APPLE_MUSIC_DEFAULT_TTL_SECONDS,
  APPLE_MUSIC_MAX_TTL_SECONDS,
  createAppleMusicTokenIssuer,
  loadAppleMusicTokenConfig,
  readAppleMusicKey,
  type AppleMusicDeveloperToken,
  type AppleMusicTokenConfig,
  type AppleMusicTokenIssuer,
  type AppleMusicTokenIssuerOptions,
} from "./apple-music-token.ts";
export { isMusicLinkHost, MUSIC_LINK_HOSTS } from "./music-link-hosts.ts";
export { cometChatHost, createCometChatRest } from "./comet-chat-rest.ts";
export type { CometChatRest, CometChatRestOptions } from "./comet-chat-rest.ts";
