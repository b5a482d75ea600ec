// Picks the real or development implementation of each outside provider from the environment, so the
// embedded default runs with no accounts anywhere and a deployment turns providers on one by one.
import { createDevAgoraTokens, createSignedAgoraTokens, type AgoraTokens } from "./agora.ts";
import { createDevAppleMusicTokens, createSignedAppleMusicTokens, type AppleMusicTokens } from "./apple-music.ts";
import { createDevCometChat, createHttpCometChat, type CometChat } from "./comet-chat.ts";
import { cometChatBaseUrl, loadProvidersConfig } from "./config.ts";
import type { DevOutbox } from "./dev-outbox.ts";
import { createDevDiscordAuth, createHttpDiscordAuth, type DiscordAuth } from "./discord.ts";
import { createDevEmailSender, createSmtpEmailSender, type EmailSender } from "./email.ts";
import { createDevPhoneValidator, createHttpPhoneValidator, type PhoneValidator } from "./phone-validation.ts";
import { createDevSmsSender, createHttpSmsSender, type SmsSender } from "./sms.ts";
import { createDevSoundCloudAuth, createHttpSoundCloudAuth, type SoundCloudAuth } from "./soundcloud.ts";
import { createDevSpotifyAuth, createHttpSpotifyAuth, type SpotifyAuth } from "./spotify.ts";
import { createDevYouTubeAuth, createHttpYouTubeAuth, type YouTubeAuth } from "./youtube.ts";

export interface Providers {
  email: EmailSender;
  sms: SmsSender;
  phoneValidation: PhoneValidator;
  discord: DiscordAuth;
  spotify: SpotifyAuth;
  youtube: YouTubeAuth;
  soundcloud: SoundCloudAuth;
  appleMusic: AppleMusicTokens;
  agora: AgoraTokens;
  cometChat: CometChat;
}

export type ProviderMode = "real" | "dev";

export interface CreatedProviders {
  providers: Providers;
  /** Which implementation each provider got, for the start-up log line. */
  modes: Record<keyof Providers, ProviderMode>;
  /** For example "email=dev sms=real …": one line a person can read in the log. */
  summary: string;
  /** Closes what holds connections (the SMTP pool); call on shutdown. */
  close(): void;
}

export interface CreateProvidersOptions {
  /** Where the development e-mail and SMS senders write. */
  devOutbox: DevOutbox;
  /** Clock for the token caches; tests move it. */
  now?: () => number;
}

/** Throws the kit's ConfigError naming every bad or half-set variable. */
export function createProviders(
  env: Record<string, string | undefined>,
  { devOutbox, now }: CreateProvidersOptions,
): CreatedProviders {
  const config = loadProvidersConfig(env);
  const timeoutMs = config.PROVIDER_TIMEOUT_MS;
  const closers: (() => void)[] = [];
  const modes = {} as Record<keyof Providers, ProviderMode>;
  // Each provider's credentials are all set or all unset (the schema checks), so one variable decides.
  function pick<K extends keyof Providers>(name: K, real: (() => Providers[K]) | undefined, dev: () => Providers[K]) {
    modes[name] = real === undefined ? "dev" : "real";
    return (real ?? dev)();
  }
  const when = <T>(ready: boolean, make: () => T) => (ready ? make : undefined);
  const c = config;

  const providers: Providers = {
    email: pick(
      "email",
      when(c.SMTP_URL !== undefined, () => {
        const sender = createSmtpEmailSender({ smtpUrl: c.SMTP_URL!, from: c.EMAIL_FROM!, timeoutMs });
        closers.push(() => sender.close());
        return sender;
      }),
      () => createDevEmailSender(devOutbox),
    ),
    sms: pick(
      "sms",
      when(c.SMS_ACCOUNT_SID !== undefined, () =>
        createHttpSmsSender({
          baseUrl: c.SMS_BASE_URL,
          accountSid: c.SMS_ACCOUNT_SID!,
          authToken: c.SMS_AUTH_TOKEN!,
          from: c.SMS_FROM!,
          timeoutMs,
        }),
      ),
      () => createDevSmsSender(devOutbox),
    ),
    phoneValidation: pick(
      "phoneValidation",
      when(c.PHONE_LOOKUP_ACCOUNT_SID !== undefined, () =>
        createHttpPhoneValidator({
          baseUrl: c.PHONE_LOOKUP_BASE_URL,
          accountSid: c.PHONE_LOOKUP_ACCOUNT_SID!,
          authToken: c.PHONE_LOOKUP_AUTH_TOKEN!,
          timeoutMs,
        }),
      ),
      createDevPhoneValidator,
    ),
    discord: pick(
      "discord",
      when(c.DISCORD_CLIENT_ID !== undefined, () =>
        createHttpDiscordAuth({
          baseUrl: c.DISCORD_BASE_URL,
          clientId: c.DISCORD_CLIENT_ID!,
          clientSecret: c.DISCORD_CLIENT_SECRET!,
          timeoutMs,
        }),
      ),
      createDevDiscordAuth,
    ),
    spotify: pick(
      "spotify",
      when(c.SPOTIFY_CLIENT_ID !== undefined, () =>
        createHttpSpotifyAuth({
          accountsBaseUrl: c.SPOTIFY_ACCOUNTS_BASE_URL,
          apiBaseUrl: c.SPOTIFY_API_BASE_URL,
          clientId: c.SPOTIFY_CLIENT_ID!,
          clientSecret: c.SPOTIFY_CLIENT_SECRET!,
          timeoutMs,
        }),
      ),
      createDevSpotifyAuth,
    ),
    youtube: pick(
      "youtube",
      when(c.GOOGLE_CLIENT_ID !== undefined, () =>
        createHttpYouTubeAuth({
          baseUrl: c.GOOGLE_OAUTH_BASE_URL,
          clientId: c.GOOGLE_CLIENT_ID!,
          clientSecret: c.GOOGLE_CLIENT_SECRET!,
          timeoutMs,
        }),
      ),
      createDevYouTubeAuth,
    ),
    soundcloud: pick(
      "soundcloud",
      when(c.SOUNDCLOUD_CLIENT_ID !== undefined, () =>
        createHttpSoundCloudAuth({
          baseUrl: c.SOUNDCLOUD_BASE_URL,
          web: { clientId: c.SOUNDCLOUD_CLIENT_ID!, clientSecret: c.SOUNDCLOUD_CLIENT_SECRET! },
          ...(c.SOUNDCLOUD_MOBILE_CLIENT_ID === undefined
            ? {}
            : {
                mobile: { clientId: c.SOUNDCLOUD_MOBILE_CLIENT_ID, clientSecret: c.SOUNDCLOUD_MOBILE_CLIENT_SECRET! },
              }),
          timeoutMs,
          ...(now === undefined ? {} : { now }),
        }),
      ),
      createDevSoundCloudAuth,
    ),
    appleMusic: pick(
      "appleMusic",
      when(c.APPLE_MUSIC_TEAM_ID !== undefined, () =>
        createSignedAppleMusicTokens({
          teamId: c.APPLE_MUSIC_TEAM_ID!,
          keyId: c.APPLE_MUSIC_KEY_ID!,
          privateKey: c.APPLE_MUSIC_PRIVATE_KEY!,
          ttlSeconds: c.APPLE_MUSIC_TOKEN_TTL_SECONDS,
          ...(now === undefined ? {} : { now }),
        }),
      ),
      createDevAppleMusicTokens,
    ),
    agora: pick(
      "agora",
      when(c.AGORA_APP_ID !== undefined, () =>
        createSignedAgoraTokens({
          appId: c.AGORA_APP_ID!,
          appCertificate: c.AGORA_APP_CERTIFICATE!,
          ...(now === undefined ? {} : { now }),
        }),
      ),
      createDevAgoraTokens,
    ),
    cometChat: pick(
      "cometChat",
      when(c.COMETCHAT_APP_ID !== undefined, () =>
        createHttpCometChat({
          baseUrl: cometChatBaseUrl(c)!,
          appId: c.COMETCHAT_APP_ID!,
          apiKey: c.COMETCHAT_API_KEY!,
          ghostUid: c.COMETCHAT_GHOST_UID,
          timeoutMs,
        }),
      ),
      createDevCometChat,
    ),
  };

  const summary = Object.entries(modes)
    .map(([name, mode]) => `${name}=${mode}`)
    .join(" ");
  return {
    providers,
    modes,
    summary,
    close: () => {
      for (const close of closers.splice(0)) close();
    },
  };
}
