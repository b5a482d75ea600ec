// The deactivation flow of specification 000 §4: a user asks, staff list the requests and deactivate,
// cancel the request, or reactivate later. Deactivation revokes every session at once and sign-in is
// refused (modules/moderation/sign-in-guard.ts) until reactivation.
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import type { EntityManager } from "@mikro-orm/postgresql";
import { DeactivationRequestSchema } from "@tt/proto/tt/user/v1/moderation_pb";
import type { DeactivationRequest as DeactivationRequestMessage } from "@tt/proto/tt/user/v1/moderation_pb";
import { publishEvent } from "@tt/kit";
import { UserDeletedSchema, UserReactivatedSchema } from "@tt/proto/tt/user/v1/events_pb";
import type { ModerationService } from "@tt/proto/tt/user/v1/moderation_service_pb";
import { Deactivation } from "../modules/moderation/deactivation.entity.ts";
import { loadModeratedUserMessage } from "../modules/moderation/moderated-user.message.ts";
import { assertOutranks } from "../modules/moderation/ranks.ts";
import { Profile } from "../modules/profiles/profile.entity.ts";
import { revokeUserSessions } from "../modules/sessions/revoke-sessions.ts";
import type { User } from "../modules/users/user.entity.ts";
import type { UserServiceContext } from "../user-context.ts";
import { callEm, callerAccount } from "./call.ts";
import {
  checkLength,
  loadCaller,
  loadTarget,
  MODERATOR_GROUP,
  STAFF_GROUP,
  writeOrConflict,
} from "./moderation-access.ts";

export const DEACTIVATION_REASON_MAX_LENGTH = 1000;
export const NO_PENDING_DEACTIVATION = "no pending deactivation request";

function toRequestMessage(row: Deactivation, user: User, nickname: string): DeactivationRequestMessage {
  return create(DeactivationRequestSchema, {
    uuid: user.id,
    email: user.email,
    nickname,
    reason: row.reason,
    requestedAt: row.requestedAt ? timestampFromDate(row.requestedAt) : undefined,
  });
}

async function nicknamesOf(em: EntityManager, userIds: string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const profiles = await em.find(Profile, { user: { $in: userIds } });
  return new Map(profiles.map((profile) => [profile.user.id, profile.nickname]));
}

export function moderationDeactivationRoutes(svc: UserServiceContext): Partial<ServiceImpl<typeof ModerationService>> {
  return {
    async requestDeactivation(req, ctx) {
      const reason = checkLength(req.reason.trim(), DEACTIVATION_REASON_MAX_LENGTH, "reason");
      const em = callEm(ctx);
      const user = await callerAccount(em, ctx);
      let row = await em.findOne(Deactivation, { user: user.id });
      // Asking again while a request is pending answers the pending one, unchanged.
      if (!row?.requestedAt) {
        row ??= em.create(Deactivation, { user, reason, requestedAt: null, deactivatedAt: null, deactivatedBy: null });
        row.reason = reason;
        row.requestedAt = new Date();
        await writeOrConflict(() => em.flush());
      }
      const nicknames = await nicknamesOf(em, [user.id]);
      return { request: toRequestMessage(row, user, nicknames.get(user.id) ?? "") };
    },

    async listDeactivationRequests(_req, ctx) {
      const { em } = await loadCaller(ctx, STAFF_GROUP);
      const rows = await em.find(
        Deactivation,
        { requestedAt: { $ne: null }, deactivatedAt: null },
        { populate: ["user"], orderBy: [{ requestedAt: "asc" }, { user: "asc" }] },
      );
      const nicknames = await nicknamesOf(
        em,
        rows.map((row) => row.user.id),
      );
      return { requests: rows.map((row) => toRequestMessage(row, row.user, nicknames.get(row.user.id) ?? "")) };
    },

    async cancelRequestedDeactivation(req, ctx) {
      const { em, caller } = await loadCaller(ctx, MODERATOR_GROUP);
      const target = await loadTarget(em, req.uuid);
      assertOutranks(caller.role, target.role);
      const row = await em.findOne(Deactivation, { user: target.id });
      if (!row?.requestedAt) throw new ConnectError(NO_PENDING_DEACTIVATION, Code.NotFound);
      if (row.deactivatedAt) row.requestedAt = null;
      else em.remove(row);
      await em.flush();
      return {};
    },

    async deactivateUser(req, ctx) {
      const { em, caller } = await loadCaller(ctx, STAFF_GROUP);
      const target = await loadTarget(em, req.id);
      assertOutranks(caller.role, target.role);
      const now = new Date();
      const row =
        (await em.findOne(Deactivation, { user: target.id })) ??
        em.create(Deactivation, {
          user: target,
          reason: "",
          requestedAt: null,
          deactivatedAt: null,
          deactivatedBy: null,
        });
      // Deactivating a deactivated account changes nothing (no second event).
      if (!row.deactivatedAt) {
        // The request, if any, is decided.
        row.requestedAt = null;
        row.deactivatedAt = now;
        row.deactivatedBy = caller.id;
        publishEvent(em, UserDeletedSchema, {
          uuid: target.id,
          deactivatedByUuid: caller.id,
          at: timestampFromDate(now),
        });
      }
      // Revoked even when already deactivated: a session opened in a race with the first call ends here.
      await writeOrConflict(() => revokeUserSessions(em, svc.revocations, target.id, now));
      return { user: await loadModeratedUserMessage(em, target, now) };
    },

    async reactivateUser(req, ctx) {
      const { em, caller } = await loadCaller(ctx, STAFF_GROUP);
      const target = await loadTarget(em, req.id);
      assertOutranks(caller.role, target.role);
      const now = new Date();
      const row = await em.findOne(Deactivation, { user: target.id });
      if (row?.deactivatedAt) {
        em.remove(row);
        publishEvent(em, UserReactivatedSchema, {
          uuid: target.id,
          reactivatedByUuid: caller.id,
          at: timestampFromDate(now),
        });
        await em.flush();
      }
      return { user: await loadModeratedUserMessage(em, target, now) };
    },
  };
}
