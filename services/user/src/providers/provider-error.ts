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

// The error type and its kinds, and isUnauthorized, are @tt/providers' (every service with outside providers shares
// the mapping).
import { isUnauthorized, ProviderError } from "@tt/providers";

export { isUnauthorized, ProviderError };
export type { ProviderErrorKind } from "@tt/providers";

export function notConfigured(provider: ProviderName, what: string): ProviderError {
  return new ProviderError(provider, "not-configured", `${what} is not configured`);
}
