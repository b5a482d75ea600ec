// Banned and deactivated accounts cannot open a session. Every sign-in path (password, magic link, Discord,
// phone, voucher, sign-up) goes through startSession, which asks here first.
import { Code, ConnectError } from "@connectrpc/connect";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { User } from "../users/user.entity.ts";
import { isBanActive, UserBan } from "./ban.entity.ts";
import { Deactivation } from "./deactivation.entity.ts";

export const ACCOUNT_BANNED = "this account is banned";
export const ACCOUNT_DEACTIVATED = "this account is deactivated";

export function accountBannedUntil(endsAt: Date): string {
  return `this account is banned until ${endsAt.toISOString()}`;
}

/**
 * Throws 401 when `user` may not sign in now. Callers check the credentials first, so these messages only
 * reach someone who proved control of the account: they reveal nothing to a stranger guessing addresses.
 */
export async function assertMaySignIn(em: EntityManager, user: User, now = new Date()): Promise<void> {
  const ban = await em.findOne(UserBan, { user: user.id });
  if (isBanActive(ban, now)) {
    throw new ConnectError(ban.endsAt ? accountBannedUntil(ban.endsAt) : ACCOUNT_BANNED, Code.Unauthenticated);
  }
  const deactivated = await em.count(Deactivation, { user: user.id, deactivatedAt: { $ne: null } });
  if (deactivated > 0) throw new ConnectError(ACCOUNT_DEACTIVATED, Code.Unauthenticated);
}
