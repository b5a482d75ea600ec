// Reading the per-call values the kit interceptors put into the handler context: the kit's helpers, and the
// user service's own account of the caller.
import type { HandlerContext } from "@connectrpc/connect";
import type { FindOneOptions, Loaded } from "@mikro-orm/core";
import type { EntityManager } from "@mikro-orm/postgresql";
import { loadCaller } from "@tt/kit";
import { User } from "../modules/users/user.entity.ts";

export { callEm, callIdentity, UNAUTHORIZED } from "@tt/kit";

/** The calling account, or 401: a valid token for an account that no longer exists is refused. */
export function callerAccount<P extends string = never>(
  em: EntityManager,
  ctx: HandlerContext,
  options?: FindOneOptions<User, P>,
): Promise<Loaded<User, P>> {
  return loadCaller(em, ctx, User, options);
}

/** The caller's user agent as the gateway forwarded it, kept with the session for "where am I signed in". */
export function callUserAgent(ctx: HandlerContext): string | null {
  const ua = ctx.requestHeader.get("user-agent");
  return ua ? ua.slice(0, 512) : null;
}
