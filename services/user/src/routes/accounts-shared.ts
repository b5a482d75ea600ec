// Small helpers the accounts routes share.
import { Code, ConnectError } from "@connectrpc/connect";
import { OptimisticLockError } from "@mikro-orm/core";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { SessionRevocations } from "@tt/kit";
import { Session } from "../modules/sessions/session.entity.ts";
import { revokeSessions } from "../modules/sessions/revoke-sessions.ts";
import type { User } from "../modules/users/user.entity.ts";
import { PASSWORD_CHANGED_CONCURRENTLY } from "./passwords.ts";

export const USER_NOT_FOUND = "user not found";

/**
 * Revokes the account's live sessions except `keep`, flushing whatever else `em` holds with them (the new
 * password), so the password and the revocations commit together.
 */
export async function revokeOtherSessions(
  em: EntityManager,
  revocations: SessionRevocations,
  user: User,
  keep: string | null,
  now = new Date(),
): Promise<void> {
  const sessions = await em.find(Session, {
    user,
    ...(keep === null ? {} : { id: { $ne: keep } }),
    revokedAt: null,
    expiresAt: { $gt: now },
  });
  try {
    // The user's version column makes a concurrent password change fail here instead of losing one.
    await revokeSessions(em, revocations, sessions, now);
  } catch (err) {
    if (err instanceof OptimisticLockError) {
      throw new ConnectError(PASSWORD_CHANGED_CONCURRENTLY, Code.Aborted, undefined, undefined, err);
    }
    throw err;
  }
}
