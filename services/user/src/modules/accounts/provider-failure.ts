import { Code, ConnectError } from "@connectrpc/connect";
import { ProviderError } from "../../providers/index.ts";

/**
 * A Discord failure as the caller should see it: not configured → FailedPrecondition, a refused code or
 * token → Unauthenticated (as the proto documents), anything on Discord's side → Unavailable. Discord's own
 * answer stays in `cause`.
 */
export function discordFailure(error: unknown): ConnectError {
  if (!(error instanceof ProviderError)) return ConnectError.from(error);
  switch (error.kind) {
    case "not-configured":
      return new ConnectError("Discord login is not configured", Code.FailedPrecondition, undefined, undefined, error);
    case "rejected":
      return new ConnectError("Discord refused the code or token", Code.Unauthenticated, undefined, undefined, error);
    case "timeout":
    case "unavailable":
    case "bad-response":
      return new ConnectError("Discord is unavailable, try again later", Code.Unavailable, undefined, undefined, error);
  }
}
