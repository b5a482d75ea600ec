import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";

/** The name of the header that makes a spending call safe to retry (as Stripe's API does). */
export const IDEMPOTENCY_KEY_HEADER = "idempotency-key";

/** The request's Idempotency-Key (1–255 visible ASCII characters), or null when none was sent. */
export function idempotencyKeyOf(ctx: HandlerContext): string | null {
  const value = ctx.requestHeader.get(IDEMPOTENCY_KEY_HEADER);
  if (value === null || value === "") return null;
  if (value.length > 255 || !/^[\x21-\x7e]+$/.test(value)) {
    throw new ConnectError("Idempotency-Key must be 1 to 255 visible ASCII characters", Code.InvalidArgument);
  }
  return value;
}
