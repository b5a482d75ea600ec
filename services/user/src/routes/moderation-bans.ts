// Kick, ban, temporary ban, unban. Each takes effect at once: the target's sessions are revoked in the
// same flush as the change and announced to every service, so the next call with an old token is refused.
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import type { EntityManager } from "@mikro-orm/postgresql";
import { publishEvent } from "@tt/kit";
import { UserBannedSchema, UserKickedSchema, UserUnbannedSchema } from "@tt/proto/tt/user/v1/events_pb";
import type { TemporaryBanUserRequest } from "@tt/proto/tt/user/v1/moderation_service_pb";
import type { ModerationService } from "@tt/proto/tt/user/v1/moderation_service_pb";
import { isBanActive, UserBan } from "../modules/moderation/ban.entity.ts";
import { loadModeratedUserMessage } from "../modules/moderation/moderated-user.message.ts";
import { assertOutranks } from "../modules/moderation/ranks.ts";
import { revokeUserSessions } from "../modules/sessions/revoke-sessions.ts";
import type { User } from "../modules/users/user.entity.ts";
import type { UserServiceContext } from "../user-context.ts";
import { checkLength, loadCaller, loadTarget, MODERATOR_GROUP, writeOrConflict } from "./moderation-access.ts";

export const REASON_MAX_LENGTH = 1000;
export const MAX_TEMPORARY_BAN_MS = 365 * 24 * 60 * 60 * 1000;
export const BAN_END_MISSING = "either duration or until is required";
export const BAN_END_NOT_IN_FUTURE = "the ban must end in the future";
export const BAN_END_TOO_FAR = "the ban must end within a year";

/** When a temporary ban ends, from exactly one of duration and until; 400 when it is missing or out of range. */
export function temporaryBanEnd(end: TemporaryBanUserRequest["end"], now: Date): Date {
  let endsAt: Date;
  if (end.case === "duration") {
    endsAt = new Date(now.getTime() + Number(end.value.seconds) * 1000 + Math.trunc(end.value.nanos / 1e6));
  } else if (end.case === "until") {
    endsAt = timestampDate(end.value);
  } else {
    throw new ConnectError(BAN_END_MISSING, Code.InvalidArgument);
  }
  if (Number.isNaN(endsAt.getTime()) || endsAt <= now)
    throw new ConnectError(BAN_END_NOT_IN_FUTURE, Code.InvalidArgument);
  if (endsAt.getTime() - now.getTime() > MAX_TEMPORARY_BAN_MS) {
    throw new ConnectError(BAN_END_TOO_FAR, Code.InvalidArgument);
  }
  return endsAt;
}

async function ban(
  svc: UserServiceContext,
  em: EntityManager,
  caller: User,
  target: User,
  reason: string,
  endsAt: Date | null,
) {
  const now = new Date();
  const existing = await em.findOne(UserBan, { user: target.id });
  // A new ban replaces the previous one (a temporary ban can become one without end, and back).
  const row = existing ?? em.create(UserBan, { user: target, reason, bannedBy: caller.id, createdAt: now, endsAt });
  Object.assign(row, { reason, bannedBy: caller.id, createdAt: now, endsAt });
  publishEvent(em, UserBannedSchema, {
    uuid: target.id,
    reason,
    bannedByUuid: caller.id,
    createdAt: timestampFromDate(now),
    ...(endsAt ? { endsAt: timestampFromDate(endsAt) } : {}),
  });
  await writeOrConflict(() => revokeUserSessions(em, svc.revocations, target.id, now));
  return { user: await loadModeratedUserMessage(em, target, now) };
}

export function moderationBanRoutes(svc: UserServiceContext): Partial<ServiceImpl<typeof ModerationService>> {
  return {
    async kickUser(req, ctx) {
      const reason = checkLength(req.reason.trim(), REASON_MAX_LENGTH, "reason");
      const { em, caller } = await loadCaller(ctx, MODERATOR_GROUP);
      const target = await loadTarget(em, req.uuid);
      assertOutranks(caller.role, target.role);
      const now = new Date();
      publishEvent(em, UserKickedSchema, {
        uuid: target.id,
        reason,
        kickedByUuid: caller.id,
        at: timestampFromDate(now),
      });
      await revokeUserSessions(em, svc.revocations, target.id, now);
      return {};
    },

    async banUser(req, ctx) {
      const reason = checkLength(req.reason.trim(), REASON_MAX_LENGTH, "reason");
      const { em, caller } = await loadCaller(ctx, MODERATOR_GROUP);
      const target = await loadTarget(em, req.uuid);
      assertOutranks(caller.role, target.role);
      return ban(svc, em, caller, target, reason, null);
    },

    async temporaryBanUser(req, ctx) {
      const reason = checkLength(req.reason.trim(), REASON_MAX_LENGTH, "reason");
      const endsAt = temporaryBanEnd(req.end, new Date());
      const { em, caller } = await loadCaller(ctx, MODERATOR_GROUP);
      const target = await loadTarget(em, req.uuid);
      assertOutranks(caller.role, target.role);
      return ban(svc, em, caller, target, reason, endsAt);
    },

    async unbanUser(req, ctx) {
      const { em, caller } = await loadCaller(ctx, MODERATOR_GROUP);
      const target = await loadTarget(em, req.uuid);
      assertOutranks(caller.role, target.role);
      const now = new Date();
      const existing = await em.findOne(UserBan, { user: target.id });
      if (existing) {
        em.remove(existing);
        // An ended ban the sweeper has not reached yet is announced here instead, as expired.
        const expired = !isBanActive(existing, now);
        publishEvent(em, UserUnbannedSchema, {
          uuid: target.id,
          unbannedByUuid: expired ? "" : caller.id,
          expired,
          at: timestampFromDate(now),
        });
        await em.flush();
      }
      return { user: await loadModeratedUserMessage(em, target, now) };
    },
  };
}
