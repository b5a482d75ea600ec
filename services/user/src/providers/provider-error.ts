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

// The error type and its kinds are the kit's (every service with outside providers shares the mapping).
import { ProviderError } from "@tt/kit";

export { ProviderError };
export type { ProviderErrorKind } from "@tt/kit";

/** True for an answer that says the token we sent is no longer accepted. */
export function isUnauthorized(error: unknown, statuses: readonly number[] = [401]): error is ProviderError {
  return error instanceof ProviderError && error.kind === "rejected" && statuses.includes(error.status ?? 0);
}

export function notConfigured(provider: ProviderName, what: string): ProviderError {
  return new ProviderError(provider, "not-configured", `${what} is not configured`);
}
