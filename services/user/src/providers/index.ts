// The user service's outside providers: one small interface each, a real implementation and a
// development one, chosen per provider by createProviders.
export { createProviders } from "./create-providers.ts";
export type { CreatedProviders, CreateProvidersOptions, ProviderMode, Providers } from "./create-providers.ts";

export { APPLE_MUSIC_MAX_TTL_SECONDS, cometChatBaseUrl, loadProvidersConfig, providersConfigSchema } from "./config.ts";
export type { ProvidersConfig } from "./config.ts";

export { isUnauthorized, notConfigured, ProviderError } from "./provider-error.ts";
export type { ProviderErrorKind, ProviderName } from "./provider-error.ts";
export { DEFAULT_PROVIDER_TIMEOUT_MS } from "./provider-http.ts";
export { withTokenRefresh } from "./token-refresh.ts";
export type { TokenRefreshOptions, TokenRefreshResult } from "./token-refresh.ts";
export type { OAuthTokens } from "./oauth-tokens.ts";

export { createInMemoryDevOutbox, DEFAULT_DEV_OUTBOX_CAPACITY } from "./dev-outbox.ts";
export type { DevOutbox, DevOutboxChannel, DevOutboxEntry, DevOutboxMessage } from "./dev-outbox.ts";

export { createDevEmailSender, createSmtpEmailSender } from "./email.ts";
export type { EmailMessage, EmailSender, SmtpEmailSender, SmtpEmailSenderOptions } from "./email.ts";

export { createDevSmsSender, createHttpSmsSender } from "./sms.ts";
export type { HttpSmsSenderOptions, SmsMessage, SmsSender } from "./sms.ts";

export {
  createDevPhoneValidator,
  createHttpPhoneValidator,
  DEV_VOIP_RANGE,
  normalizeE164,
} from "./phone-validation.ts";
export type {
  HttpPhoneValidatorOptions,
  PhoneValidationResult,
  PhoneValidationStatus,
  PhoneValidator,
} from "./phone-validation.ts";

export { createDevDiscordAuth, createHttpDiscordAuth } from "./discord.ts";
export type { DiscordAuth, DiscordUser, HttpDiscordAuthOptions } from "./discord.ts";

export { createDevSpotifyAuth, createHttpSpotifyAuth } from "./spotify.ts";
export type { HttpSpotifyAuthOptions, SpotifyAuth, SpotifyUser } from "./spotify.ts";

export { createDevYouTubeAuth, createHttpYouTubeAuth } from "./youtube.ts";
export type { HttpYouTubeAuthOptions, YouTubeAuth } from "./youtube.ts";

export { createDevSoundCloudAuth, createHttpSoundCloudAuth } from "./soundcloud.ts";
export type {
  HttpSoundCloudAuthOptions,
  SoundCloudAuth,
  SoundCloudClient,
  SoundCloudPublicToken,
  SoundCloudVariant,
} from "./soundcloud.ts";

export { createDevAppleMusicTokens, createSignedAppleMusicTokens, readAppleMusicKey } from "./apple-music.ts";
export type { AppleMusicDeveloperToken, AppleMusicTokens, SignedAppleMusicTokensOptions } from "./apple-music.ts";

export { AGORA_MAX_TTL_SECONDS, createDevAgoraTokens, createSignedAgoraTokens } from "./agora.ts";
export type {
  AgoraRtcRole,
  AgoraRtcToken,
  AgoraRtcTokenRequest,
  AgoraTokens,
  SignedAgoraTokensOptions,
} from "./agora.ts";

export { createDevCometChat, createHttpCometChat } from "./comet-chat.ts";
export type { CometChat, CometChatToken, CometChatUser, HttpCometChatOptions } from "./comet-chat.ts";
