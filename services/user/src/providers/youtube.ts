// YouTube account linking through Google OAuth2 (spec 000: /youtube/exchange-code, /youtube/refresh-token).
import { notConfigured } from "./provider-error.ts";
import { requestTokens, type OAuthTokens } from "./oauth-tokens.ts";

export interface YouTubeAuth {
  /** Ask for access_type=offline in the consent URL, or Google sends no refresh token. */
  exchangeCode(code: string, redirectUri: string): Promise<OAuthTokens>;
  refresh(refreshToken: string): Promise<OAuthTokens>;
}

export interface HttpYouTubeAuthOptions {
  /** https://oauth2.googleapis.com */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  timeoutMs: number;
}

export function createHttpYouTubeAuth(options: HttpYouTubeAuthOptions): YouTubeAuth {
  // Google takes the client credentials in the form body.
  const token = (form: Record<string, string>) =>
    requestTokens({
      provider: "youtube",
      url: `${options.baseUrl}/token`,
      form: { ...form, client_id: options.clientId, client_secret: options.clientSecret },
      timeoutMs: options.timeoutMs,
    });
  return {
    exchangeCode: (code, redirectUri) => token({ grant_type: "authorization_code", code, redirect_uri: redirectUri }),
    refresh: (refreshToken) => token({ grant_type: "refresh_token", refresh_token: refreshToken }),
  };
}

export function createDevYouTubeAuth(): YouTubeAuth {
  const unavailable = () => Promise.reject(notConfigured("youtube", "YouTube"));
  return { exchangeCode: unavailable, refresh: unavailable };
}
