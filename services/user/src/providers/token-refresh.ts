// Spec 002 §8: when a provider refuses a token (401; 403 for SoundCloud), refresh it and retry once.
// A second refusal is thrown: looping would hammer the provider with a revoked grant.
import { isUnauthorized } from "./provider-error.ts";

export interface TokenRefreshOptions<T> {
  accessToken: string;
  /** Called at most once, after the first refusal; returns the new access token. */
  refresh: () => Promise<string>;
  call: (accessToken: string) => Promise<T>;
  /** Statuses that mean "token refused"; 401 unless the provider says otherwise. */
  statuses?: readonly number[];
}

export interface TokenRefreshResult<T> {
  result: T;
  /** The token that worked; differs from the one passed in when a refresh happened (store it). */
  accessToken: string;
  refreshed: boolean;
}

export async function withTokenRefresh<T>(options: TokenRefreshOptions<T>): Promise<TokenRefreshResult<T>> {
  try {
    return { result: await options.call(options.accessToken), accessToken: options.accessToken, refreshed: false };
  } catch (error) {
    if (!isUnauthorized(error, options.statuses)) throw error;
  }
  const accessToken = await options.refresh();
  return { result: await options.call(accessToken), accessToken, refreshed: true };
}
