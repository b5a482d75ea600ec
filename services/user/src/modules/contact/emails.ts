// E-mail rows of an account and their messages. The account's sign-in address lives in users.email (the
// accounts slice owns it); its row here is made on first need so it can carry a verification state.
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { EntityManager } from "@mikro-orm/postgresql";
import { EmailSchema as EmailMessageSchema, type Email as EmailMessage } from "@tt/proto/tt/user/v1/user_pb";
import type { User } from "../users/user.entity.ts";
import { Email } from "./email.entity.ts";

export const EMAIL_TYPES = ["personal", "work", "payment", "spotify", "discord"] as const;
/** What a user may add by hand; spotify and discord addresses come from linking those accounts. */
export const USER_EMAIL_TYPES = ["personal", "work", "payment"] as const;

export const EmailStatus = {
  pending: "PENDING_VERIFICATION",
  verified: "VERIFIED",
  deleted: "DELETED",
  createdByAdmin: "CREATED_BY_ADMIN",
} as const;

/** Accounts made by phone sign-in get a placeholder address in this reserved domain (RFC 2606). */
export const PHONE_ACCOUNT_EMAIL_DOMAIN = "phone.invalid";

/**
 * Whether the address only fills users.email for an account that has none: phone accounts here, bots and
 * Discord accounts without a verified address (accounts area), all under the reserved .invalid TLD. They
 * get no e-mail row: no mail can reach them.
 */
export function isPlaceholderEmail(address: string): boolean {
  return address.endsWith(".invalid");
}

export function toEmailMessage(email: Email): EmailMessage {
  return create(EmailMessageSchema, {
    id: email.id,
    email: email.email,
    type: email.type,
    status: email.status,
    primary: email.primary,
    verifiedAt: email.verifiedAt ? timestampFromDate(email.verifiedAt) : undefined,
    verificationSentAt: email.verificationSentAt ? timestampFromDate(email.verificationSentAt) : undefined,
    createdAt: timestampFromDate(email.createdAt),
  });
}

/**
 * The row of the account's sign-in address, made (persisted with the next flush) when missing, and moved
 * to the current address when users.email changed. Placeholder addresses of phone accounts get none.
 */
export async function ensurePrimaryEmail(em: EntityManager, user: User): Promise<Email | undefined> {
  const primary = await em.findOne(Email, { userId: user.id, primary: true, status: { $ne: EmailStatus.deleted } });
  if (isPlaceholderEmail(user.email)) return undefined;
  if (primary) {
    if (primary.email !== user.email) {
      primary.email = user.email;
      primary.status = EmailStatus.pending;
      primary.verifiedAt = null;
      primary.codeHash = null;
      primary.codeExpiresAt = null;
      primary.codeAttempts = 0;
    }
    return primary;
  }
  return em.create(Email, {
    userId: user.id,
    email: user.email,
    type: "personal",
    status: EmailStatus.pending,
    primary: true,
    codeHash: null,
    codeExpiresAt: null,
    codeAttempts: 0,
    verifiedAt: null,
    verificationSentAt: null,
  });
}

/** Whether `address` is a VERIFIED e-mail of the account (for the slices that require one, e.g. passwords). */
export async function isEmailVerified(em: EntityManager, userId: string, address: string): Promise<boolean> {
  // An address staff entered counts as verified (CREATED_BY_ADMIN), as the contract says.
  const status = { $in: [EmailStatus.verified, EmailStatus.createdByAdmin] };
  return (await em.count(Email, { userId, email: address, status })) > 0;
}
