// One error type for every outside provider, so the service maps them to Connect codes in one place and
// never leaks a provider's answer (or our credentials) to its own callers.

export type ProviderName =
  | "email"
  | "sms"
  | "phone-validation"
  | "discord"
  | "spotify"
  | "youtube"
  | "soundcloud"
  | "apple-music"
  | "agora"
  | "comet-chat";

/**
 * - `not-configured`: no credentials in this deployment (development default); FailedPrecondition.
 * - `rejected`: the provider answered 4xx (bad code, revoked token, bad credentials); see `status`.
 * - `unavailable`: the provider answered 5xx or could not be reached; Unavailable, worth a later retry.
 * - `timeout`: no answer within the configured timeout; DeadlineExceeded / Unavailable.
 * - `bad-response`: a 2xx answer we could not read; Internal.
 */
export type ProviderErrorKind = "not-configured" | "rejected" | "unavailable" | "timeout" | "bad-response";

export class ProviderError extends Error {
  constructor(
    readonly provider: ProviderName,
    readonly kind: ProviderErrorKind,
    /** A short reason safe to log: the provider's error code or our own words, never a credential. */
    readonly reason: string,
    /** The provider's HTTP status (or SMTP reply code) when there was one. */
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(`${provider}: ${reason}${status === undefined ? "" : ` (status ${status})`}`, options);
    this.name = "ProviderError";
  }
}

/** True for an answer that says the token we sent is no longer accepted. */
export function isUnauthorized(error: unknown, statuses: readonly number[] = [401]): error is ProviderError {
  return error instanceof ProviderError && error.kind === "rejected" && statuses.includes(error.status ?? 0);
}

export function notConfigured(provider: ProviderName, what: string): ProviderError {
  return new ProviderError(provider, "not-configured", `${what} is not configured`);
}
