// The outside music providers' part of the playlist service's environment. A provider is real when its
// credentials are set and absent otherwise (search and song data then work on the platform's catalogue
// alone: the embedded default needs no credentials and no internet). Setting only part of a provider's
// credentials stops the start, naming the variable.
import { checkSetTogether, envFlag, httpBaseUrl, optionalEnvString, parseEnv } from "@tt/kit";
import { DEFAULT_PROVIDER_TIMEOUT_MS } from "@tt/providers";
import { z } from "zod";

const GROUPS = [
  ["SPOTIFY_CLIENT_ID", "SPOTIFY_CLIENT_SECRET"],
  ["SOUNDCLOUD_CLIENT_ID", "SOUNDCLOUD_CLIENT_SECRET"],
] as const;

export const musicProvidersConfigSchema = z
  .object({
    PROVIDER_TIMEOUT_MS: z.coerce.number().int().positive().max(120_000).default(DEFAULT_PROVIDER_TIMEOUT_MS),
    SPOTIFY_ACCOUNTS_BASE_URL: httpBaseUrl("https://accounts.spotify.com"),
    SPOTIFY_API_BASE_URL: httpBaseUrl("https://api.spotify.com"),
    SPOTIFY_CLIENT_ID: optionalEnvString,
    SPOTIFY_CLIENT_SECRET: optionalEnvString,
    APPLE_MUSIC_API_BASE_URL: httpBaseUrl("https://api.music.apple.com"),
    APPLE_MUSIC_DEVELOPER_TOKEN: optionalEnvString,
    SOUNDCLOUD_API_BASE_URL: httpBaseUrl("https://api.soundcloud.com"),
    SOUNDCLOUD_CLIENT_ID: optionalEnvString,
    SOUNDCLOUD_CLIENT_SECRET: optionalEnvString,
    AUDIUS_API_BASE_URL: httpBaseUrl("https://api.audius.co"),
    AUDIUS_APP_NAME: optionalEnvString,
    YOUTUBE_API_BASE_URL: httpBaseUrl("https://www.googleapis.com"),
    YOUTUBE_API_KEY: optionalEnvString,
    SEVEN_DIGITAL_API_BASE_URL: httpBaseUrl("https://api.7digital.com"),
    SEVEN_DIGITAL_MEDIA_BASE_URL: httpBaseUrl("https://stream.svc.7digital.net"),
    SEVEN_DIGITAL_PREVIEW_BASE_URL: httpBaseUrl("https://previews.7digital.com"),
    SEVEN_DIGITAL_CONSUMER_KEY: optionalEnvString,
    SEVEN_DIGITAL_SEARCH_V2: envFlag(false),
    MUSIC_ANALYSIS_URL: httpBaseUrl("https://api.cyanite.ai/graphql"),
    MUSIC_ANALYSIS_ACCESS_TOKEN: optionalEnvString,
    MUSIC_ANALYSIS_WEBHOOK_SECRET: optionalEnvString,
  })
  .superRefine((env, ctx) => checkSetTogether(GROUPS, env, ctx));

export type MusicProvidersConfig = z.output<typeof musicProvidersConfigSchema>;

export function loadMusicProvidersConfig(env: Record<string, string | undefined>): MusicProvidersConfig {
  return parseEnv(musicProvidersConfigSchema, env);
}
