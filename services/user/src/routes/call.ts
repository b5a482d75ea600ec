// Reading the per-call values the kit interceptors put into the handler context.
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type { EntityManager } from "@mikro-orm/postgresql";
import { INTERNAL_ERROR_MESSAGE, kEm, kIdentity, type Identity } from "@tt/kit";

export const UNAUTHORIZED = "Unauthorized";

/** The call's EntityManager fork. Missing means the host was wired without the EntityManager interceptor. */
export function callEm(ctx: HandlerContext): EntityManager {
  const em = ctx.values.get(kEm);
  if (!em) {
    const cause = new Error("no EntityManager fork: the host runs no EntityManager interceptor");
    throw new ConnectError(INTERNAL_ERROR_MESSAGE, Code.Internal, undefined, undefined, cause);
  }
  return em;
}

/** The verified caller. The access policy already ran; this only guards against a miswired host. */
export function callIdentity(ctx: HandlerContext): Identity {
  const identity = ctx.values.get(kIdentity);
  if (!identity) throw new ConnectError(UNAUTHORIZED, Code.Unauthenticated);
  return identity;
}

/** The caller's user agent as the gateway forwarded it, kept with the session for "where am I signed in". */
export function callUserAgent(ctx: HandlerContext): string | null {
  const ua = ctx.requestHeader.get("user-agent");
  return ua ? ua.slice(0, 512) : null;
}
