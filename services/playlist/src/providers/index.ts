// The playlist service's outside music providers, each behind its small interface. `createMusicProviders`
// builds the real HTTP client of every provider whose credentials are configured and leaves the others out:
// the development default (no credentials) is the platform's own catalogue alone.
import { createHttpAppleMusic, type AppleMusicCatalog } from "./apple-music.ts";
import { createHttpAudius, type Audius } from "./audius.ts";
import type { MusicProvidersConfig } from "./config.ts";
import { createHttpMusicAnalysis, type MusicAnalysis } from "./music-analysis.ts";
import { createHttpSevenDigital, type SevenDigital } from "./seven-digital.ts";
import { createHttpSoundCloud, type SoundCloudPrivate, type SoundCloudPublic } from "./soundcloud.ts";
import { createHttpSpotifyCatalog, type SpotifyCatalog } from "./spotify.ts";
import { clientCredentialsToken, staticToken } from "./token-source.ts";
import { createHttpYouTube, type YouTubeVideos } from "./youtube.ts";

export interface MusicProviders {
  spotify?: SpotifyCatalog;
  apple?: AppleMusicCatalog;
  soundcloud?: SoundCloudPublic & SoundCloudPrivate;
  audius?: Audius;
  youtube?: YouTubeVideos;
  sevenDigital?: SevenDigital;
  analysis?: MusicAnalysis;
  /** The webhook secret of the music-analysis service (HMAC-SHA512 of the body), when configured. */
  analysisWebhookSecret?: string;
  /** Provider → "real" | "development", for the start log. */
  summary: Record<string, "real" | "development">;
}

export function createMusicProviders(config: MusicProvidersConfig): MusicProviders {
  const timeoutMs = config.PROVIDER_TIMEOUT_MS;
  const providers: MusicProviders = { summary: {} };
  if (config.SPOTIFY_CLIENT_ID !== undefined && config.SPOTIFY_CLIENT_SECRET !== undefined) {
    providers.spotify = createHttpSpotifyCatalog({
      apiBaseUrl: config.SPOTIFY_API_BASE_URL,
      app: clientCredentialsToken({
        provider: "spotify",
        url: `${config.SPOTIFY_ACCOUNTS_BASE_URL}/api/token`,
        clientId: config.SPOTIFY_CLIENT_ID,
        clientSecret: config.SPOTIFY_CLIENT_SECRET,
        timeoutMs,
      }),
      timeoutMs,
    });
  }
  if (config.APPLE_MUSIC_DEVELOPER_TOKEN !== undefined) {
    providers.apple = createHttpAppleMusic({
      apiBaseUrl: config.APPLE_MUSIC_API_BASE_URL,
      developer: staticToken(config.APPLE_MUSIC_DEVELOPER_TOKEN),
      timeoutMs,
    });
  }
  if (config.SOUNDCLOUD_CLIENT_ID !== undefined && config.SOUNDCLOUD_CLIENT_SECRET !== undefined) {
    providers.soundcloud = createHttpSoundCloud({
      apiBaseUrl: config.SOUNDCLOUD_API_BASE_URL,
      app: clientCredentialsToken({
        provider: "soundcloud",
        url: `${config.SOUNDCLOUD_API_BASE_URL}/oauth2/token`,
        clientId: config.SOUNDCLOUD_CLIENT_ID,
        clientSecret: config.SOUNDCLOUD_CLIENT_SECRET,
        timeoutMs,
      }),
      timeoutMs,
    });
  }
  if (config.AUDIUS_APP_NAME !== undefined) {
    providers.audius = createHttpAudius({
      apiBaseUrl: config.AUDIUS_API_BASE_URL,
      appName: config.AUDIUS_APP_NAME,
      timeoutMs,
    });
  }
  if (config.YOUTUBE_API_KEY !== undefined) {
    providers.youtube = createHttpYouTube({
      apiBaseUrl: config.YOUTUBE_API_BASE_URL,
      apiKey: config.YOUTUBE_API_KEY,
      timeoutMs,
    });
  }
  if (config.SEVEN_DIGITAL_CONSUMER_KEY !== undefined) {
    providers.sevenDigital = createHttpSevenDigital({
      apiBaseUrl: config.SEVEN_DIGITAL_API_BASE_URL,
      mediaBaseUrl: config.SEVEN_DIGITAL_MEDIA_BASE_URL,
      previewBaseUrl: config.SEVEN_DIGITAL_PREVIEW_BASE_URL,
      consumerKey: config.SEVEN_DIGITAL_CONSUMER_KEY,
      v2: config.SEVEN_DIGITAL_SEARCH_V2,
      timeoutMs,
    });
  }
  if (config.MUSIC_ANALYSIS_ACCESS_TOKEN !== undefined) {
    providers.analysis = createHttpMusicAnalysis({
      url: config.MUSIC_ANALYSIS_URL,
      accessToken: config.MUSIC_ANALYSIS_ACCESS_TOKEN,
      timeoutMs,
    });
  }
  if (config.MUSIC_ANALYSIS_WEBHOOK_SECRET !== undefined) {
    providers.analysisWebhookSecret = config.MUSIC_ANALYSIS_WEBHOOK_SECRET;
  }
  for (const name of ["spotify", "apple", "soundcloud", "audius", "youtube", "sevenDigital", "analysis"] as const) {
    providers.summary[name] = providers[name] === undefined ? "development" : "real";
  }
  return providers;
}

export type {
  AppleMusicCatalog,
  Audius,
  MusicAnalysis,
  SevenDigital,
  SoundCloudPrivate,
  SoundCloudPublic,
  SpotifyCatalog,
  YouTubeVideos,
};
export type { ProviderSearchPage, ProviderTrack } from "./track.ts";
export type { TokenSource } from "./token-source.ts";
