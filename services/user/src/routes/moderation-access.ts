// Who is calling and on whom, for the moderation routes. The kit already checked the token's role against
// the access option; the account's stored role is checked again here because it may have changed since the
// token was signed, and every rank comparison uses stored roles.
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import { OptimisticLockError, UniqueConstraintViolationException } from "@mikro-orm/core";
import type { EntityManager } from "@mikro-orm/postgresql";
import { isUuid } from "@tt/kit";
import { User } from "../modules/users/user.entity.ts";
import { callEm, callerAccount, UNAUTHORIZED } from "./call.ts";
import { PROFILE_NOT_FOUND } from "../modules/profile-data/profile-rules.ts";

// superUser passes every access option (the kit lets it in everywhere) and ranks above all.
export const MODERATOR_GROUP: readonly string[] = ["globalModerator", "moderator", "admin", "staff", "superUser"];
export const STAFF_GROUP: readonly string[] = ["staff", "admin", "superUser"];

export const CHANGED_CONCURRENTLY = "the account was changed at the same time, try again";

/** The caller's account; 401 unless its stored role is still one of `group`. */
export async function loadCaller(
  ctx: HandlerContext,
  group: readonly string[],
): Promise<{ em: EntityManager; caller: User }> {
  const em = callEm(ctx);
  const caller = await callerAccount(em, ctx);
  if (!group.includes(caller.role)) throw new ConnectError(UNAUTHORIZED, Code.Unauthenticated);
  return { em, caller };
}

/** The account a moderation call names; 404 "user profile not found" when there is none (or not a uuid). */
export async function loadTarget(em: EntityManager, uuid: string): Promise<User> {
  // Not a uuid cannot name a user; answering 404 keeps PostgreSQL from rejecting the cast with a 500.
  const user = isUuid(uuid) ? await em.findOne(User, { id: uuid.toLowerCase() }) : null;
  if (!user) throw new ConnectError(PROFILE_NOT_FOUND, Code.NotFound);
  return user;
}

/** Runs the write; a concurrent change of the same account (version or key clash) becomes 409, not 500. */
export async function writeOrConflict<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (err instanceof OptimisticLockError || err instanceof UniqueConstraintViolationException) {
      throw new ConnectError(CHANGED_CONCURRENTLY, Code.Aborted, undefined, undefined, err);
    }
    throw err;
  }
}

/** Text limits count code points, as the user sees characters. */
export function checkLength(value: string, max: number, name: string): string {
  if ([...value].length > max)
    throw new ConnectError(`${name} must be at most ${max} characters`, Code.InvalidArgument);
  return value;
}
