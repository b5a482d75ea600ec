// Where a provider client gets its bearer token: the app's own (client credentials, cached) or a user's
// (from the user service). `refresh` is called at most once per request, after the provider refused the
// token (401; 403 for SoundCloud, spec 002 §8), and must return a newer one.
import { basicAuth, requestJson, requireString, withTokenRefresh } from "@tt/providers";
import { rec } from "./track.ts";

export interface TokenSource {
  get(): Promise<string>;
  refresh(): Promise<string>;
}

/** Runs `call` with the source's token, refreshing once when the provider refuses it. */
export async function withToken<T>(
  source: TokenSource,
  call: (token: string) => Promise<T>,
  statuses: readonly number[] = [401],
): Promise<T> {
  const accessToken = await source.get();
  return (await withTokenRefresh({ accessToken, refresh: () => source.refresh(), call, statuses })).result;
}

/** An OAuth2 client-credentials token, kept until a minute before it expires or until refused. */
export function clientCredentialsToken(options: {
  provider: string;
  url: string;
  clientId: string;
  clientSecret: string;
  timeoutMs: number;
  now?: () => number;
}): TokenSource {
  const now = options.now ?? Date.now;
  let cached: { token: string; until: number } | undefined;
  const fetchToken = async () => {
    const body = await requestJson({
      provider: options.provider,
      method: "POST",
      url: options.url,
      headers: { authorization: basicAuth(options.clientId, options.clientSecret) },
      form: { grant_type: "client_credentials" },
      timeoutMs: options.timeoutMs,
    });
    const token = requireString(options.provider, body, "access_token");
    const expiresIn = Number(rec(body).expires_in ?? 3600);
    cached = { token, until: now() + Math.max(0, (Number.isFinite(expiresIn) ? expiresIn : 3600) - 60) * 1000 };
    return token;
  };
  return {
    get: async () => (cached !== undefined && cached.until > now() ? cached.token : fetchToken()),
    refresh: fetchToken,
  };
}

/** A fixed token (a configured API key or developer token): nothing to refresh, a refusal is final. */
export function staticToken(token: string): TokenSource {
  return { get: async () => token, refresh: async () => token };
}
