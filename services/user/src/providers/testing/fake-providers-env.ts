// The environment that points every token provider (Spotify, Google/YouTube, SoundCloud, CometChat) at one
// recording fake, with made-up credentials, a real Agora app and Apple Music signing key, and a fresh
// PROVIDER_TOKEN_KEY: what the provider-token tests start the service with, in process and end to end.
import { generateKeyPairSync, randomBytes } from "node:crypto";

export function fakeProvidersEnv(fakeUrl: string): Record<string, string> {
  return {
    PROVIDER_TOKEN_KEY: randomBytes(32).toString("base64"),
    SPOTIFY_ACCOUNTS_BASE_URL: fakeUrl,
    SPOTIFY_API_BASE_URL: fakeUrl,
    SPOTIFY_CLIENT_ID: "sp-id",
    SPOTIFY_CLIENT_SECRET: "sp-secret",
    GOOGLE_OAUTH_BASE_URL: fakeUrl,
    GOOGLE_CLIENT_ID: "g-id",
    GOOGLE_CLIENT_SECRET: "g-secret",
    SOUNDCLOUD_BASE_URL: fakeUrl,
    SOUNDCLOUD_CLIENT_ID: "sc-web",
    SOUNDCLOUD_CLIENT_SECRET: "sc-web-secret",
    SOUNDCLOUD_MOBILE_CLIENT_ID: "sc-mobile",
    SOUNDCLOUD_MOBILE_CLIENT_SECRET: "sc-mobile-secret",
    COMETCHAT_APP_ID: "cc-app",
    COMETCHAT_API_KEY: "cc-key",
    COMETCHAT_BASE_URL: fakeUrl,
    AGORA_APP_ID: "0123456789abcdef0123456789abcdef",
    AGORA_APP_CERTIFICATE: "fedcba9876543210fedcba9876543210",
    APPLE_MUSIC_TEAM_ID: "TEAM123456",
    APPLE_MUSIC_KEY_ID: "KEY1234567",
    APPLE_MUSIC_PRIVATE_KEY: generateKeyPairSync("ec", { namedCurve: "P-256" })
      .privateKey.export({ type: "pkcs8", format: "pem" })
      .toString(),
  };
}
