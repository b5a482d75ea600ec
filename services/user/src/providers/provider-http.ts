// The HTTP helpers of every provider client now live in the kit (shared with the playlist service's clients).
export {
  basicAuth,
  DEFAULT_PROVIDER_TIMEOUT_MS,
  errorFromResponse,
  isRecord,
  optionalString,
  requestJson,
  requireString,
  sendProviderRequest as send,
} from "@tt/kit";
export type { ProviderRequest, ProviderResponse } from "@tt/kit";
