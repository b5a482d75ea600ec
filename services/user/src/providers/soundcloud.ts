// SoundCloud tokens (spec 000: /soundcloud/public-token, /soundcloud/mobile/public-token,
// /soundcloud/refresh-token and the mobile variant). The public token is an app token from the
// client-credentials grant, shared by every listener, so it is cached: SoundCloud rate-limits that grant.
import { notConfigured } from "./provider-error.ts";
import { requestTokens, type OAuthTokens } from "./oauth-tokens.ts";
import { withTokenRefresh } from "./token-refresh.ts";

export interface SoundCloudPublicToken {
  accessToken: string;
  expiresAt: Date;
}

export interface SoundCloudVariant {
  /** The mobile apps are a separate SoundCloud app with their own client id. */
  mobile: boolean;
}

export interface SoundCloudAuth {
  /** Cached until shortly before it expires; concurrent callers share one request. */
  publicToken(variant: SoundCloudVariant): Promise<SoundCloudPublicToken>;
  /**
   * Runs a SoundCloud call with the public token; when SoundCloud refuses it (401, or 403 as SoundCloud
   * answers for revoked app tokens, spec 002 §8) the cached token is dropped and the call retried once.
   */
  withPublicToken<T>(variant: SoundCloudVariant, call: (accessToken: string) => Promise<T>): Promise<T>;
  /** SoundCloud rotates refresh tokens: store the returned one. */
  refresh(refreshToken: string, variant: SoundCloudVariant): Promise<OAuthTokens>;
}

export interface SoundCloudClient {
  clientId: string;
  clientSecret: string;
}

export interface HttpSoundCloudAuthOptions {
  /** https://api.soundcloud.com */
  baseUrl: string;
  web: SoundCloudClient;
  /** Defaults to the web client when the deployment has one SoundCloud app. */
  mobile?: SoundCloudClient;
  timeoutMs: number;
  now?: () => number;
}

/** Renew this long before expiry so a token handed out still works for the call it is used for. */
const EXPIRY_MARGIN_MS = 5 * 60_000;

interface CacheEntry {
  token?: SoundCloudPublicToken;
  /** When to fetch a new one: the margin before expiry, or half way for very short-lived tokens. */
  renewAt?: number;
  pending?: Promise<SoundCloudPublicToken>;
}

export function createHttpSoundCloudAuth(options: HttpSoundCloudAuthOptions): SoundCloudAuth {
  const now = options.now ?? Date.now;
  const url = `${options.baseUrl}/oauth2/token`;
  // Keyed by client id, so one app serving both variants shares one token.
  const cache = new Map<string, CacheEntry>();
  const clientFor = (variant: SoundCloudVariant) => (variant.mobile ? (options.mobile ?? options.web) : options.web);

  const token = (client: SoundCloudClient, form: Record<string, string>) =>
    requestTokens({
      provider: "soundcloud",
      url,
      form,
      basic: { clientId: client.clientId, clientSecret: client.clientSecret },
      timeoutMs: options.timeoutMs,
    });

  function entryFor(variant: SoundCloudVariant): { client: SoundCloudClient; entry: CacheEntry } {
    const client = clientFor(variant);
    let entry = cache.get(client.clientId);
    if (entry === undefined) cache.set(client.clientId, (entry = {}));
    return { client, entry };
  }

  function publicToken(variant: SoundCloudVariant): Promise<SoundCloudPublicToken> {
    const { client, entry } = entryFor(variant);
    if (entry.token !== undefined && entry.renewAt !== undefined && now() < entry.renewAt) {
      return Promise.resolve(entry.token);
    }
    entry.pending ??= token(client, { grant_type: "client_credentials" }).then(
      (tokens) => {
        const issuedAt = now();
        const lifetimeMs = tokens.expiresIn * 1000;
        entry.token = { accessToken: tokens.accessToken, expiresAt: new Date(issuedAt + lifetimeMs) };
        entry.renewAt = issuedAt + Math.max(lifetimeMs - EXPIRY_MARGIN_MS, lifetimeMs / 2);
        entry.pending = undefined;
        return entry.token;
      },
      (error: unknown) => {
        entry.pending = undefined;
        throw error;
      },
    );
    return entry.pending;
  }

  return {
    async publicToken(variant) {
      const cached = await publicToken(variant);
      return { accessToken: cached.accessToken, expiresAt: new Date(cached.expiresAt) };
    },
    async withPublicToken(variant, call) {
      const first = await publicToken(variant);
      const outcome = await withTokenRefresh({
        accessToken: first.accessToken,
        statuses: [401, 403],
        refresh: async () => {
          const { entry } = entryFor(variant);
          // Another caller may already have replaced the refused token; only drop the one that failed.
          if (entry.token?.accessToken === first.accessToken) entry.token = undefined;
          return (await publicToken(variant)).accessToken;
        },
        call,
      });
      return outcome.result;
    },
    refresh(refreshToken, variant) {
      return token(clientFor(variant), { grant_type: "refresh_token", refresh_token: refreshToken });
    },
  };
}

export function createDevSoundCloudAuth(): SoundCloudAuth {
  const unavailable = () => Promise.reject(notConfigured("soundcloud", "SoundCloud"));
  return { publicToken: unavailable, withPublicToken: unavailable, refresh: unavailable };
}
