// The token answer shared by the OAuth2 providers (RFC 6749 §5.1), in the service's own field names.
import { ProviderError, type ProviderName } from "./provider-error.ts";
import { isRecord, optionalString, requireString } from "./provider-http.ts";

export interface OAuthTokens {
  accessToken: string;
  /** Seconds from the answer until the access token expires. */
  expiresIn: number;
  /** Present when the provider issued (or rotated) one; keep the old one otherwise. */
  refreshToken?: string;
  scope?: string;
}

export function parseTokenResponse(provider: ProviderName, body: unknown): OAuthTokens {
  const accessToken = requireString(provider, body, "access_token");
  const expiresIn = isRecord(body) ? Number(body.expires_in) : Number.NaN;
  if (!Number.isFinite(expiresIn) || expiresIn <= 0) {
    throw new ProviderError(provider, "bad-response", "answer has no expires_in");
  }
  const tokens: OAuthTokens = { accessToken, expiresIn };
  const refreshToken = optionalString(body, "refresh_token");
  if (refreshToken !== undefined) tokens.refreshToken = refreshToken;
  const scope = optionalString(body, "scope");
  if (scope !== undefined) tokens.scope = scope;
  return tokens;
}
