// The outside music providers' part of the playlist service's environment. A provider is real when its
// credentials are set and absent otherwise (search and song data then work on the platform's catalogue
// alone: the embedded default needs no credentials and no internet). Setting only part of a provider's
// credentials stops the start, naming the variable.
import { parseEnv } from "@tt/kit";
import { DEFAULT_PROVIDER_TIMEOUT_MS } from "@tt/providers";
import { z } from "zod";

const unsetIfEmpty = (v: unknown) => (v === "" ? undefined : v);
const optional = z.preprocess(unsetIfEmpty, z.string().optional());
const baseUrl = (fallback: string) =>
  z.preprocess(
    unsetIfEmpty,
    z
      .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
      .default(fallback)
      .transform((url) => url.replace(/\/+$/, "")),
  );
const flag = z.preprocess(unsetIfEmpty, z.enum(["true", "false"]).default("false")).transform((v) => v === "true");

const GROUPS = [
  ["SPOTIFY_CLIENT_ID", "SPOTIFY_CLIENT_SECRET"],
  ["SOUNDCLOUD_CLIENT_ID", "SOUNDCLOUD_CLIENT_SECRET"],
] as const;

export const musicProvidersConfigSchema = z
  .object({
    PROVIDER_TIMEOUT_MS: z.coerce.number().int().positive().max(120_000).default(DEFAULT_PROVIDER_TIMEOUT_MS),
    SPOTIFY_ACCOUNTS_BASE_URL: baseUrl("https://accounts.spotify.com"),
    SPOTIFY_API_BASE_URL: baseUrl("https://api.spotify.com"),
    SPOTIFY_CLIENT_ID: optional,
    SPOTIFY_CLIENT_SECRET: optional,
    APPLE_MUSIC_API_BASE_URL: baseUrl("https://api.music.apple.com"),
    APPLE_MUSIC_DEVELOPER_TOKEN: optional,
    SOUNDCLOUD_API_BASE_URL: baseUrl("https://api.soundcloud.com"),
    SOUNDCLOUD_CLIENT_ID: optional,
    SOUNDCLOUD_CLIENT_SECRET: optional,
    AUDIUS_API_BASE_URL: baseUrl("https://api.audius.co"),
    AUDIUS_APP_NAME: optional,
    YOUTUBE_API_BASE_URL: baseUrl("https://www.googleapis.com"),
    YOUTUBE_API_KEY: optional,
    SEVEN_DIGITAL_API_BASE_URL: baseUrl("https://api.7digital.com"),
    SEVEN_DIGITAL_MEDIA_BASE_URL: baseUrl("https://stream.svc.7digital.net"),
    SEVEN_DIGITAL_PREVIEW_BASE_URL: baseUrl("https://previews.7digital.com"),
    SEVEN_DIGITAL_CONSUMER_KEY: optional,
    SEVEN_DIGITAL_SEARCH_V2: flag,
    MUSIC_ANALYSIS_URL: baseUrl("https://api.cyanite.ai/graphql"),
    MUSIC_ANALYSIS_ACCESS_TOKEN: optional,
    MUSIC_ANALYSIS_WEBHOOK_SECRET: optional,
  })
  .superRefine((env, ctx) => {
    for (const group of GROUPS) {
      const set = group.filter((name) => env[name] !== undefined);
      if (set.length === 0 || set.length === group.length) continue;
      for (const name of group) {
        if (env[name] === undefined) {
          ctx.addIssue({ code: "custom", path: [name], message: `must be set together with ${set.join(", ")}` });
        }
      }
    }
  });

export type MusicProvidersConfig = z.output<typeof musicProvidersConfigSchema>;

export function loadMusicProvidersConfig(env: Record<string, string | undefined>): MusicProvidersConfig {
  return parseEnv(musicProvidersConfigSchema, env);
}
