// The token answer shared by the OAuth2 providers (RFC 6749 §5.1), in the service's own field names.
import { ProviderError, type ProviderName } from "./provider-error.ts";
import { basicAuth, isRecord, optionalString, requestJson, requireString } from "./provider-http.ts";

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

export interface TokenRequest {
  provider: ProviderName;
  url: string;
  form: Record<string, string | undefined>;
  /** Client credentials as HTTP Basic auth (Spotify, SoundCloud); otherwise they go in the form. */
  basic?: { clientId: string; clientSecret: string };
  timeoutMs: number;
}

/** POSTs a token request as a form (RFC 6749 §4.1.3, §6) and reads the answer. */
export async function requestTokens(request: TokenRequest): Promise<OAuthTokens> {
  const body = await requestJson({
    provider: request.provider,
    method: "POST",
    url: request.url,
    form: request.form,
    headers:
      request.basic === undefined
        ? {}
        : { authorization: basicAuth(request.basic.clientId, request.basic.clientSecret) },
    timeoutMs: request.timeoutMs,
  });
  return parseTokenResponse(request.provider, body);
}
