import { randomUUID } from "node:crypto";
import { Code, ConnectError } from "@connectrpc/connect";
import { UniqueConstraintViolationException } from "@mikro-orm/core";
import type { EntityManager } from "@mikro-orm/postgresql";
import { EMAIL_ALREADY_REGISTERED } from "../../account-rules.ts";
import { enqueueUserCreated } from "../../events.ts";
import { recordEmail, type EmailKind } from "../accounts/account-emails.ts";
import { isPlaceholderEmail } from "../contact/emails.ts";
import { Profile } from "../profiles/profile.entity.ts";
import { User } from "./user.entity.ts";

export interface NewAccount {
  /** Already normalized (see account-rules.ts). */
  email: string;
  passwordHash: string;
  role: string;
  nickname: string;
  /**
   * How the sign-in address is known: a personal address waiting for its code unless said otherwise (staff
   * vouch for theirs, Discord verified its own). Reserved `.invalid` addresses (bots, phone and Discord
   * accounts without one) get no row.
   */
  emailKind?: EmailKind;
}

/**
 * Creates an account, its profile, the e-mail row of its sign-in address and its tt.user.user.created event;
 * persisted with the caller's next flush. The e-mail row is made here, with the account, so every answer that
 * shows the account in full (account-message.ts) lists the address from the first answer on.
 */
export function createAccount(em: EntityManager, account: NewAccount): { user: User; profile: Profile } {
  const user = em.create(User, {
    // Set here rather than at flush: the event written with the account carries them.
    id: randomUUID(),
    createdAt: new Date(),
    email: account.email,
    passwordHash: account.passwordHash,
    role: account.role,
    capabilities: [],
    badges: [],
  });
  const profile = em.create(Profile, { user, nickname: account.nickname, avatarId: null, color: null, bio: null });
  if (!isPlaceholderEmail(account.email)) {
    recordEmail(em, user.id, account.email, account.emailKind ?? { type: "personal", status: "PENDING_VERIFICATION" });
  }
  enqueueUserCreated(em, user, profile);
  return { user, profile };
}

/** Flushes a new account; a concurrent sign-up with the same address loses on the unique index with a 403. */
export async function flushNewAccount(em: EntityManager): Promise<void> {
  try {
    await em.flush();
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) {
      throw new ConnectError(EMAIL_ALREADY_REGISTERED, Code.PermissionDenied, undefined, undefined, err);
    }
    throw err;
  }
}
