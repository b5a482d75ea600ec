// The outside providers' part of the environment. A provider is real when its credentials are set and
// development otherwise; setting only some of a provider's credentials is an error, not a silent fallback.
import { parseEnv } from "@tt/kit";
import { cometChatHost } from "@tt/providers";
import { z } from "zod";
import { readAppleMusicKey } from "./apple-music.ts";
import { DEFAULT_PROVIDER_TIMEOUT_MS } from "./provider-http.ts";

// Empty strings come from templated manifests (`FOO: ""`); treat them as unset.
const unsetIfEmpty = (v: unknown) => (v === "" ? undefined : v);
const optionalString = z.preprocess(unsetIfEmpty, z.string().optional());
const baseUrl = (fallback: string) =>
  z.preprocess(
    unsetIfEmpty,
    z
      .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
      .default(fallback)
      .transform((url) => url.replace(/\/+$/, "")),
  );
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
    EMAIL_FROM: optionalString,

    SMS_BASE_URL: baseUrl("https://api.twilio.com"),
    SMS_ACCOUNT_SID: optionalString,
    SMS_AUTH_TOKEN: optionalString,
    SMS_FROM: optionalString,

    PHONE_LOOKUP_BASE_URL: baseUrl("https://lookups.twilio.com"),
    PHONE_LOOKUP_ACCOUNT_SID: optionalString,
    PHONE_LOOKUP_AUTH_TOKEN: optionalString,

    DISCORD_BASE_URL: baseUrl("https://discord.com"),
    DISCORD_CLIENT_ID: optionalString,
    DISCORD_CLIENT_SECRET: optionalString,

    SPOTIFY_ACCOUNTS_BASE_URL: baseUrl("https://accounts.spotify.com"),
    SPOTIFY_API_BASE_URL: baseUrl("https://api.spotify.com"),
    SPOTIFY_CLIENT_ID: optionalString,
    SPOTIFY_CLIENT_SECRET: optionalString,

    GOOGLE_OAUTH_BASE_URL: baseUrl("https://oauth2.googleapis.com"),
    GOOGLE_CLIENT_ID: optionalString,
    GOOGLE_CLIENT_SECRET: optionalString,

    SOUNDCLOUD_BASE_URL: baseUrl("https://api.soundcloud.com"),
    SOUNDCLOUD_CLIENT_ID: optionalString,
    SOUNDCLOUD_CLIENT_SECRET: optionalString,
    SOUNDCLOUD_MOBILE_CLIENT_ID: optionalString,
    SOUNDCLOUD_MOBILE_CLIENT_SECRET: optionalString,

    APPLE_MUSIC_TEAM_ID: optionalString,
    APPLE_MUSIC_KEY_ID: optionalString,
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

    COMETCHAT_APP_ID: optionalString,
    COMETCHAT_API_KEY: optionalString,
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
      for (const group of GROUPS) {
        const set = group.filter((key) => env[key] !== undefined);
        if (set.length === 0 || set.length === group.length) continue;
        for (const key of group) {
          if (env[key] === undefined) {
            ctx.addIssue({ code: "custom", path: [key], message: `is required when ${set.join(", ")} is set` });
          }
        }
      }
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
