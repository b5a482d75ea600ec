// The e-mail rows (contact area's table) that accounts made here start with.
import type { EntityManager } from "@mikro-orm/postgresql";
import { Email } from "../contact/email.entity.ts";
import { EmailStatus } from "../contact/emails.ts";
import { UserSocials } from "../profile-data/user-socials.entity.ts";

export interface EmailKind {
  type: "personal" | "discord";
  status: "PENDING_VERIFICATION" | "VERIFIED" | "CREATED_BY_ADMIN";
  /** The sign-in address (users.email); the default. */
  primary?: boolean;
}

/**
 * Records an address of the account. `primary` marks the sign-in address (users.email); a Discord address
 * is VERIFIED because Discord verified it; an admin's is CREATED_BY_ADMIN; one typed in at sign-up waits
 * for its code (PENDING_VERIFICATION). Persisted with the next flush.
 */
export function recordEmail(
  em: EntityManager,
  userId: string,
  address: string,
  kind: EmailKind,
  now = new Date(),
): Email {
  return em.create(Email, {
    userId,
    email: address,
    type: kind.type,
    status: kind.status,
    primary: kind.primary ?? true,
    codeHash: null,
    codeExpiresAt: null,
    codeAttempts: 0,
    verifiedAt: kind.status === EmailStatus.verified ? now : null,
    verificationSentAt: null,
  });
}

/** Whether the account already has a (not deleted) row for this address. */
export async function hasEmailRow(em: EntityManager, userId: string, address: string): Promise<boolean> {
  return (await em.count(Email, { userId, email: address, status: { $ne: EmailStatus.deleted } })) > 0;
}

/** Shows the Discord name on the profile (socials.discord belongs to this area, the rest to profile-data). */
export async function setDiscordSocial(em: EntityManager, userId: string, username: string): Promise<void> {
  const socials = await em.findOne(UserSocials, { user: userId });
  if (socials) socials.discord = username;
  else em.create(UserSocials, { user: userId, discord: username });
}
