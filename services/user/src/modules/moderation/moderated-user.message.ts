import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { EntityManager } from "@mikro-orm/postgresql";
import { BanSchema, type User as UserMessage } from "@tt/proto/tt/user/v1/user_pb";
import type { User } from "../users/user.entity.ts";
import { toUserMessage } from "../users/user.message.ts";
import { isBanActive, UserBan } from "./ban.entity.ts";
import { Deactivation } from "./deactivation.entity.ts";

/**
 * The account as the API shows it, with its moderation state (ban, deactivation request, deactivation).
 * An expired temporary ban the sweeper has not removed yet is shown as no ban.
 */
export function toModeratedUserMessage(
  user: User,
  ban: UserBan | null,
  deactivation: Deactivation | null,
  now = new Date(),
): UserMessage {
  return withModerationState(toUserMessage(user), ban, deactivation, now);
}

/** Adds the moderation state (active ban, deactivation request and deactivation) to a user message. */
export function withModerationState(
  message: UserMessage,
  ban: UserBan | null | undefined,
  deactivation: Deactivation | null | undefined,
  now = new Date(),
): UserMessage {
  if (isBanActive(ban, now)) {
    message.ban = create(BanSchema, {
      reason: ban.reason,
      bannedByUuid: ban.bannedBy ?? "",
      createdAt: timestampFromDate(ban.createdAt),
      endsAt: ban.endsAt ? timestampFromDate(ban.endsAt) : undefined,
    });
  }
  if (deactivation?.requestedAt) message.deactivationRequestedAt = timestampFromDate(deactivation.requestedAt);
  if (deactivation?.deactivatedAt) message.deactivatedAt = timestampFromDate(deactivation.deactivatedAt);
  return message;
}

/** Loads the moderation state of `user` and shows it (for areas that answer with a User). */
export async function loadModeratedUserMessage(em: EntityManager, user: User, now = new Date()): Promise<UserMessage> {
  const ban = await em.findOne(UserBan, { user: user.id });
  const deactivation = await em.findOne(Deactivation, { user: user.id });
  return toModeratedUserMessage(user, ban, deactivation, now);
}
