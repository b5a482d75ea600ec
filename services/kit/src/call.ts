// What every handler needs from its call, once for every service: the verified caller and the call's
// EntityManager fork (both put there by the host's interceptors), and the argument checks whose 400
// messages read the same in every service ("<field> missing in request", "<field> must be a uuid").
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type { EntityName, FindOneOptions, Loaded } from "@mikro-orm/core";
import type { EntityManager } from "@mikro-orm/postgresql";
import { kEm, kIdentity, type Identity } from "./context.ts";
import { INTERNAL_ERROR_MESSAGE } from "./errors.ts";

/** The message of a refusal for want of a caller; the specification's 401 body. */
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

/**
 * The caller's own row of `entity` (its primary key is the token's subject: a user's account), or 401: a valid
 * token whose account no longer exists must not be answered as nobody. `options` as for `em.findOne`.
 */
export async function loadCaller<T extends object, P extends string = never>(
  em: EntityManager,
  ctx: HandlerContext,
  entity: EntityName<T>,
  options?: FindOneOptions<T, P>,
): Promise<Loaded<T, P>> {
  // `{ id }` is the primary key of every caller entity; MikroORM cannot type that for a generic entity.
  const row = await em.findOne(entity, { id: callIdentity(ctx).subject } as never, options);
  if (!row) throw new ConnectError(UNAUTHORIZED, Code.Unauthenticated);
  return row;
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` is a uuid in its canonical text form (any case). */
export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}

/**
 * `value` lowercased, or a 400 naming `field`: PostgreSQL would answer a malformed uuid with an error (a 500).
 * An empty value is "missing in request", the specification's wording for an absent field.
 */
export function checkUuid(value: string, field = "id"): string {
  if (value === "") throw new ConnectError(`${field} missing in request`, Code.InvalidArgument);
  if (!isUuid(value)) throw new ConnectError(`${field} must be a uuid`, Code.InvalidArgument);
  return value.toLowerCase();
}

/** A page size: 0 (unset in proto3) is `fallback`; anything outside 1..`max` is a 400. */
export function checkLimit(limit: number, fallback: number, max: number, field = "limit"): number {
  if (limit === 0) return fallback;
  if (!Number.isInteger(limit) || limit < 1 || limit > max) {
    throw new ConnectError(`${field} must be between 1 and ${max}`, Code.InvalidArgument);
  }
  return limit;
}
