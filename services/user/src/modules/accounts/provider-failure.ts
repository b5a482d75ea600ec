import { Code, ConnectError } from "@connectrpc/connect";
import { toConnectProviderError } from "@tt/providers";

/**
 * A Discord failure as the caller should see it (the kit's mapping): not configured → FailedPrecondition, a
 * refused code or token → Unauthenticated (as the proto documents), anything on Discord's side → Unavailable.
 * Discord's own answer stays in `cause`.
 */
export function discordFailure(error: unknown): ConnectError {
  return ConnectError.from(
    toConnectProviderError(error, "Discord login", {
      refusal: { message: "Discord refused the code or token", code: Code.Unauthenticated },
      unavailable: "Discord is unavailable, try again later",
    }),
  );
}
