// Outside providers (e-mail, SMS, OAuth and music APIs, payment, storage…) fail in a few kinds; a service
// throws ProviderError from its provider clients and maps it to a ConnectError here, in one place, so every
// RPC answers the same way and no provider answer (or credential) reaches a caller: the provider's reason
// stays in `cause`, for the log.
import { Code, ConnectError } from "@connectrpc/connect";

/**
 * - `not-configured`: no credentials in this deployment (development default); FailedPrecondition.
 * - `rejected`: the provider answered 4xx (bad code, revoked token, bad credentials); see `status`.
 * - `unavailable`: the provider answered 5xx or could not be reached; Unavailable, worth a later retry.
 * - `timeout`: no answer within the configured timeout; Unavailable.
 * - `bad-response`: a 2xx answer we could not read; Unavailable (a retry later may work).
 */
export type ProviderErrorKind = "not-configured" | "rejected" | "unavailable" | "timeout" | "bad-response";

export class ProviderError<Name extends string = string> extends Error {
  constructor(
    readonly provider: Name,
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

/** How one call words a provider's failure; `label` names the provider to the caller ("Spotify"). */
export interface ProviderFailureWords {
  /** A 4xx from the provider in this call. Default: "<label> refused the request", InvalidArgument. */
  refusal?: { message: string; code: Code };
  /** One message for every failure on the provider's side (timeout, unavailable, unreadable answer). */
  unavailable?: string;
}

/** A ProviderError as the caller should see it; any other error is returned unchanged. */
export function toConnectProviderError(error: unknown, label: string, words: ProviderFailureWords = {}): unknown {
  if (!(error instanceof ProviderError)) return error;
  const fail = (message: string, code: Code) => new ConnectError(message, code, undefined, undefined, error);
  const refusal = words.refusal ?? { message: `${label} refused the request`, code: Code.InvalidArgument };
  switch (error.kind) {
    case "not-configured":
      return fail(`${label} is not configured`, Code.FailedPrecondition);
    case "rejected":
      return fail(refusal.message, refusal.code);
    case "timeout":
      return fail(words.unavailable ?? `${label} did not answer in time`, Code.Unavailable);
    case "unavailable":
      return fail(words.unavailable ?? `${label} is not available`, Code.Unavailable);
    case "bad-response":
      // Our fault or theirs, a retry later may work; an Internal would hide the provider behind a 500.
      return fail(words.unavailable ?? `${label} answered unexpectedly`, Code.Unavailable);
  }
}

/** Runs a provider call and rethrows its failure as a ConnectError. */
export async function callProvider<T>(label: string, call: () => Promise<T>, words?: ProviderFailureWords): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toConnectProviderError(error, label, words);
  }
}
