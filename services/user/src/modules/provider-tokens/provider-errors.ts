// ProviderError → ConnectError in one place, so every RPC of the area answers the same way and no
// provider answer (or credential) reaches a caller: the provider's reason goes into `cause` only.
import { Code, ConnectError } from "@connectrpc/connect";
import { ProviderError } from "../../providers/index.ts";

/**
 * `refusal` is the message and code for a 4xx from the provider in this call (a bad code or a revoked
 * refresh token is 401 per the contract); other 4xx default to InvalidArgument.
 */
export function toConnectProviderError(
  error: unknown,
  label: string,
  refusal: { message: string; code: Code } = { message: `${label} refused the request`, code: Code.InvalidArgument },
): unknown {
  if (!(error instanceof ProviderError)) return error;
  switch (error.kind) {
    case "not-configured":
      return new ConnectError(`${label} is not configured`, Code.FailedPrecondition, undefined, undefined, error);
    case "rejected":
      return new ConnectError(refusal.message, refusal.code, undefined, undefined, error);
    case "timeout":
      return new ConnectError(`${label} did not answer in time`, Code.Unavailable, undefined, undefined, error);
    case "unavailable":
      return new ConnectError(`${label} is not available`, Code.Unavailable, undefined, undefined, error);
    case "bad-response":
      // Our fault or theirs, a retry later may work; an Internal would hide the provider behind a 500.
      return new ConnectError(`${label} answered unexpectedly`, Code.Unavailable, undefined, undefined, error);
  }
}

/** Runs a provider call and rethrows its failure as a ConnectError. */
export async function callProvider<T>(
  label: string,
  call: () => Promise<T>,
  refusal?: { message: string; code: Code },
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toConnectProviderError(error, label, refusal);
  }
}
