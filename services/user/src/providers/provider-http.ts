// The HTTP helpers of every provider client live in @tt/providers (shared with the playlist service's clients).
export {
  basicAuth,
  DEFAULT_PROVIDER_TIMEOUT_MS,
  errorFromResponse,
  isRecord,
  optionalString,
  requestJson,
  requireString,
  sendProviderRequest as send,
} from "@tt/providers";
export type { ProviderRequest, ProviderResponse } from "@tt/providers";
