// Spotify account linking and the access tokens the player needs (spec 000: /spotify/exchange-code,
// /spotify/refresh-token, /spotify/access-token/{id}/service).
import { notConfigured } from "./provider-error.ts";
import { optionalString, requestJson, requireString } from "./provider-http.ts";
import { requestTokens, type OAuthTokens } from "./oauth-tokens.ts";

export interface SpotifyUser {
  id: string;
  displayName?: string;
  /** Recorded as the user's `spotify` e-mail (spec 000 email types); needs the user-read-email scope. */
  email?: string;
  /** premium, free or open; playback in the web player needs premium. */
  product?: string;
}

export interface SpotifyAuth {
  exchangeCode(code: string, redirectUri: string): Promise<OAuthTokens>;
  /** Spotify may rotate the refresh token; keep the old one when the answer has none. */
  refresh(refreshToken: string): Promise<OAuthTokens>;
  /** Throws ProviderError status 401 when the access token expired: refresh and retry (withTokenRefresh). */
  getCurrentUser(accessToken: string): Promise<SpotifyUser>;
}

export interface HttpSpotifyAuthOptions {
  /** https://accounts.spotify.com */
  accountsBaseUrl: string;
  /** https://api.spotify.com */
  apiBaseUrl: string;
  clientId: string;
  clientSecret: string;
  timeoutMs: number;
}

export function createHttpSpotifyAuth(options: HttpSpotifyAuthOptions): SpotifyAuth {
  const token = (form: Record<string, string>) =>
    requestTokens({
      provider: "spotify",
      url: `${options.accountsBaseUrl}/api/token`,
      form,
      basic: { clientId: options.clientId, clientSecret: options.clientSecret },
      timeoutMs: options.timeoutMs,
    });
  return {
    exchangeCode: (code, redirectUri) => token({ grant_type: "authorization_code", code, redirect_uri: redirectUri }),
    refresh: (refreshToken) => token({ grant_type: "refresh_token", refresh_token: refreshToken }),
    async getCurrentUser(accessToken) {
      const body = await requestJson({
        provider: "spotify",
        method: "GET",
        url: `${options.apiBaseUrl}/v1/me`,
        headers: { authorization: `Bearer ${accessToken}` },
        timeoutMs: options.timeoutMs,
      });
      const user: SpotifyUser = { id: requireString("spotify", body, "id") };
      const displayName = optionalString(body, "display_name");
      if (displayName !== undefined) user.displayName = displayName;
      const email = optionalString(body, "email");
      if (email !== undefined) user.email = email;
      const product = optionalString(body, "product");
      if (product !== undefined) user.product = product;
      return user;
    },
  };
}

export function createDevSpotifyAuth(): SpotifyAuth {
  const unavailable = () => Promise.reject(notConfigured("spotify", "Spotify"));
  return { exchangeCode: unavailable, refresh: unavailable, getCurrentUser: unavailable };
}
