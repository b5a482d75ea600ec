import type { EntityManager } from "@mikro-orm/postgresql";
import type { SessionRevocations } from "@tt/kit";
import { Session } from "./session.entity.ts";

/**
 * Revokes sessions: marks them in the database, flushes (together with whatever else `em` holds, so a
 * password change and the revocations it causes commit as one), then tells every service. Announcing only
 * after the commit means a failed commit never leaves tokens refused that the database still holds valid.
 */
export async function revokeSessions(
  em: EntityManager,
  revocations: SessionRevocations,
  sessions: readonly Session[],
  now = new Date(),
): Promise<void> {
  for (const session of sessions) session.revokedAt = now;
  await em.flush();
  await Promise.all(sessions.map((session) => revocations.revoke(session.id, session.expiresAt)));
}

/**
 * Revokes every live session of the account with user id `userId` (see revokeSessions: one flush with
 * whatever `em` holds, then the announcement). Returns how many were revoked.
 */
export async function revokeUserSessions(
  em: EntityManager,
  revocations: SessionRevocations,
  userId: string,
  now = new Date(),
): Promise<number> {
  const live = await em.find(Session, { user: userId, revokedAt: null, expiresAt: { $gt: now } });
  await revokeSessions(em, revocations, live, now);
  return live.length;
}
