// The account as the accounts area answers it, in full: profile and socials (profile-data area), e-mails and
// phone numbers (contact area), ban and deactivation (moderation area), plus what this area knows (bot owner,
// whether a password is set). Each area's own view builder is reused so the shapes never drift.
import type { EntityManager } from "@mikro-orm/postgresql";
import type { User as UserMessage } from "@tt/proto/tt/user/v1/user_pb";
import { Email } from "../contact/email.entity.ts";
import { EmailStatus, toEmailMessage } from "../contact/emails.ts";
import { PhoneNumber } from "../contact/phone-number.entity.ts";
import { toPhoneNumberMessage } from "../contact/phone-numbers.ts";
import { loadModeratedUserMessage } from "../moderation/moderated-user.message.ts";
import type { MediaConfig } from "../profile-data/media-config.ts";
import { loadProfileParts, toFullUserMessage } from "../profile-data/profile-view.ts";
import { User } from "../users/user.entity.ts";
import { BotOwner } from "./bot-owner.entity.ts";
import { hasPassword } from "./no-password.ts";

export async function toAccountMessage(em: EntityManager, user: User, mediaBaseUrl: string): Promise<UserMessage> {
  const [withHash, parts, moderated, emails, phones, bot] = await Promise.all([
    em.findOneOrFail(User, { id: user.id }, { populate: ["passwordHash"] }),
    loadProfileParts(em, [user.id]),
    loadModeratedUserMessage(em, user),
    em.find(Email, { userId: user.id, status: { $ne: EmailStatus.deleted } }, { orderBy: { createdAt: "asc" } }),
    em.find(PhoneNumber, { userId: user.id }, { orderBy: { createdAt: "asc" } }),
    em.findOne(BotOwner, { bot: user.id }),
  ]);
  const profile = parts.get(user.id);
  const message = profile ? toFullUserMessage(profile, mediaBaseUrl, true) : moderated;
  message.ban = moderated.ban;
  message.deactivationRequestedAt = moderated.deactivationRequestedAt;
  message.deactivatedAt = moderated.deactivatedAt;
  message.emails = emails.map(toEmailMessage);
  message.phoneNumbers = phones.map(toPhoneNumberMessage);
  message.hasPassword = hasPassword(withHash.passwordHash);
  message.ownerUuid = bot?.owner.id ?? "";
  return message;
}

export type AccountView = (em: EntityManager, user: User) => Promise<UserMessage>;

/** toAccountMessage with the media base URL (for picture links) bound. */
export function accountView(mediaBaseUrl: () => string): AccountView {
  return (em, user) => toAccountMessage(em, user, mediaBaseUrl());
}

/**
 * The account view of the service: every answer that hands a user their own account (sign-up, login, the
 * session, phone sign-in, the accounts area) uses it, so none shows less than the others.
 */
export function serviceAccountView(media: MediaConfig): AccountView {
  return accountView(() => media.MEDIA_BASE_URL);
}
