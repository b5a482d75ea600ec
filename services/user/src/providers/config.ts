// The outside providers' part of the environment. A provider is real when its credentials are set and
// development otherwise; setting only some of a provider's credentials is an error, not a silent fallback.
import { checkSetTogether, httpBaseUrl, optionalEnvString, parseEnv, unsetIfEmpty } from "@tt/kit";
import { cometChatHost } from "@tt/providers";
import { z } from "zod";
import { readAppleMusicKey } from "./apple-music.ts";
import { DEFAULT_PROVIDER_TIMEOUT_MS } from "./provider-http.ts";

const agoraHex = z.preprocess(
  unsetIfEmpty,
  z
    .string()
    .regex(/^[0-9a-fA-F]{32}$/, "must be the 32 hexadecimal characters from the Agora console")
    .optional(),
);

/** Apple refuses developer tokens that live longer than six months. */
export const APPLE_MUSIC_MAX_TTL_SECONDS = 15_777_000;

/** Variables that must be set together; the first names the group in error messages. */
const GROUPS = [
  ["SMTP_URL", "EMAIL_FROM"],
  ["SMS_ACCOUNT_SID", "SMS_AUTH_TOKEN", "SMS_FROM"],
  ["PHONE_LOOKUP_ACCOUNT_SID", "PHONE_LOOKUP_AUTH_TOKEN"],
  ["DISCORD_CLIENT_ID", "DISCORD_CLIENT_SECRET"],
  ["SPOTIFY_CLIENT_ID", "SPOTIFY_CLIENT_SECRET"],
  ["GOOGLE_CLIENT_ID", "GOOGLE_CLIENT_SECRET"],
  ["SOUNDCLOUD_CLIENT_ID", "SOUNDCLOUD_CLIENT_SECRET"],
  ["SOUNDCLOUD_MOBILE_CLIENT_ID", "SOUNDCLOUD_MOBILE_CLIENT_SECRET"],
  ["APPLE_MUSIC_TEAM_ID", "APPLE_MUSIC_KEY_ID", "APPLE_MUSIC_PRIVATE_KEY"],
  ["AGORA_APP_ID", "AGORA_APP_CERTIFICATE"],
  ["COMETCHAT_APP_ID", "COMETCHAT_API_KEY"],
] as const;

export const providersConfigSchema = z
  .object({
    PROVIDER_TIMEOUT_MS: z.coerce.number().int().positive().default(DEFAULT_PROVIDER_TIMEOUT_MS),

    SMTP_URL: z.preprocess(
      unsetIfEmpty,
      z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" }).optional(),
    ),
    EMAIL_FROM: optionalEnvString,

    SMS_BASE_URL: httpBaseUrl("https://api.twilio.com"),
    SMS_ACCOUNT_SID: optionalEnvString,
    SMS_AUTH_TOKEN: optionalEnvString,
    SMS_FROM: optionalEnvString,

    PHONE_LOOKUP_BASE_URL: httpBaseUrl("https://lookups.twilio.com"),
    PHONE_LOOKUP_ACCOUNT_SID: optionalEnvString,
    PHONE_LOOKUP_AUTH_TOKEN: optionalEnvString,

    DISCORD_BASE_URL: httpBaseUrl("https://discord.com"),
    DISCORD_CLIENT_ID: optionalEnvString,
    DISCORD_CLIENT_SECRET: optionalEnvString,

    SPOTIFY_ACCOUNTS_BASE_URL: httpBaseUrl("https://accounts.spotify.com"),
    SPOTIFY_API_BASE_URL: httpBaseUrl("https://api.spotify.com"),
    SPOTIFY_CLIENT_ID: optionalEnvString,
    SPOTIFY_CLIENT_SECRET: optionalEnvString,

    GOOGLE_OAUTH_BASE_URL: httpBaseUrl("https://oauth2.googleapis.com"),
    GOOGLE_CLIENT_ID: optionalEnvString,
    GOOGLE_CLIENT_SECRET: optionalEnvString,

    SOUNDCLOUD_BASE_URL: httpBaseUrl("https://api.soundcloud.com"),
    SOUNDCLOUD_CLIENT_ID: optionalEnvString,
    SOUNDCLOUD_CLIENT_SECRET: optionalEnvString,
    SOUNDCLOUD_MOBILE_CLIENT_ID: optionalEnvString,
    SOUNDCLOUD_MOBILE_CLIENT_SECRET: optionalEnvString,

    APPLE_MUSIC_TEAM_ID: optionalEnvString,
    APPLE_MUSIC_KEY_ID: optionalEnvString,
    // Kubernetes secrets and .env files often carry the PEM on one line with literal "\n".
    APPLE_MUSIC_PRIVATE_KEY: z.preprocess(
      (v) => (typeof v === "string" ? unsetIfEmpty(v.replace(/\\n/g, "\n")) : v),
      z.string().includes("-----BEGIN PRIVATE KEY-----", { error: "must be a PKCS8 PEM private key" }).optional(),
    ),
    APPLE_MUSIC_TOKEN_TTL_SECONDS: z.coerce
      .number()
      .int()
      .positive()
      .max(APPLE_MUSIC_MAX_TTL_SECONDS, { error: `must not exceed ${APPLE_MUSIC_MAX_TTL_SECONDS} (six months)` })
      .default(12 * 60 * 60),

    AGORA_APP_ID: agoraHex,
    AGORA_APP_CERTIFICATE: agoraHex,

    COMETCHAT_APP_ID: optionalEnvString,
    COMETCHAT_API_KEY: optionalEnvString,
    COMETCHAT_REGION: z.preprocess(unsetIfEmpty, z.enum(["us", "eu", "in"]).default("us")),
    COMETCHAT_BASE_URL: z.preprocess(
      unsetIfEmpty,
      z
        .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
        .transform((url) => url.replace(/\/+$/, ""))
        .optional(),
    ),
    COMETCHAT_GHOST_UID: z.preprocess(
      unsetIfEmpty,
      z
        .string()
        .regex(/^[a-zA-Z0-9_-]{1,100}$/, "must be a CometChat uid (letters, digits, _ and -)")
        .default("tt-ghost"),
    ),
  })
  .superRefine(
    (env, ctx) => {
      checkSetTogether(GROUPS, env, ctx);
      // Checked here so a bad key stops the start with the variable's name, not the first token request.
      const pem: unknown = env.APPLE_MUSIC_PRIVATE_KEY;
      if (typeof pem === "string" && pem.includes("-----BEGIN PRIVATE KEY-----")) {
        try {
          readAppleMusicKey(pem);
        } catch (error) {
          ctx.addIssue({ code: "custom", path: ["APPLE_MUSIC_PRIVATE_KEY"], message: (error as Error).message });
        }
      }
    },
    // Run even when a field already failed, so one start-up error names every problem.
    { when: () => true },
  );

export type ProvidersConfig = z.output<typeof providersConfigSchema>;

/** Throws the kit's ConfigError naming every bad or missing variable. */
export function loadProvidersConfig(env: Record<string, string | undefined>): ProvidersConfig {
  return parseEnv(providersConfigSchema, env);
}

/** CometChat's REST host is per app and region unless a base URL (a fake, a proxy) is given. */
export function cometChatBaseUrl(config: ProvidersConfig): string | undefined {
  if (config.COMETCHAT_BASE_URL !== undefined) return config.COMETCHAT_BASE_URL;
  if (config.COMETCHAT_APP_ID === undefined) return undefined;
  return cometChatHost(config.COMETCHAT_APP_ID, config.COMETCHAT_REGION);
}
