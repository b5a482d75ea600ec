// The moderation log: manual entries (create, bulk, update, delete), the admin list and a user's actions.
import { Code, ConnectError, type HandlerContext, type ServiceImpl } from "@connectrpc/connect";
import type { EntityManager } from "@mikro-orm/postgresql";
import { adminList, callEm, callIdentity, checkLimit, type AdminListSpec } from "@tt/kit";
import type { CreateModerationActionRequest, ModerationService } from "@tt/proto/tt/audit/v1/moderation_service_pb";
import type { AuditContext } from "../context.ts";
import { ModerationAction } from "../modules/moderation/moderation-action.entity.ts";
import { moderationActionMessage, parseDate } from "./messages.ts";

export const MODERATION_ACTION_NOT_FOUND = "moderation action not found";
export const MAX_BULK = 100;
/** Who may read anyone's moderation entries. */
const STAFF_ROLES = new Set(["admin", "globalModerator", "moderator", "staff"]);

export const MODERATION_ACTION_LIST: AdminListSpec<ModerationAction> = {
  entity: ModerationAction,
  fields: {
    id: "id",
    actionType: "actionType",
    userUuid: "userUuid",
    moderatorUuid: "moderatorUuid",
    roomUuid: "roomUuid",
    role: "role",
    previousRole: "previousRole",
    reason: "reason",
    endsAt: "endsAt",
    sourceEventId: "sourceEventId",
    createdAt: "createdAt",
    updatedAt: "updatedAt",
  },
  defaultSort: [["createdAt", "DESC"]],
};

function build(em: EntityManager, req: CreateModerationActionRequest, ctx: HandlerContext, field: string) {
  const identity = callIdentity(ctx);
  const endsAt = parseDate(req.endsAt, `${field}endsAt`);
  if (endsAt && req.actionType !== "temporaryBan") {
    throw new ConnectError(`${field}endsAt is only for temporaryBan`, Code.InvalidArgument);
  }
  const moderator = req.moderatorUuid || (identity.tokenType === "user" ? identity.subject : "");
  return em.create(ModerationAction, {
    actionType: req.actionType,
    userUuid: req.userUuid.toLowerCase(),
    moderatorUuid: moderator ? moderator.toLowerCase() : null,
    roomUuid: req.roomUuid ? req.roomUuid.toLowerCase() : null,
    role: req.role || null,
    previousRole: req.previousRole || null,
    reason: req.reason || null,
    endsAt: endsAt ?? null,
  });
}

async function find(em: EntityManager, id: string): Promise<ModerationAction> {
  const row = await em.findOne(ModerationAction, { id: id.toLowerCase() });
  if (!row) throw new ConnectError(MODERATION_ACTION_NOT_FOUND, Code.NotFound);
  return row;
}

export function moderationRoutes(_svc: AuditContext): ServiceImpl<typeof ModerationService> {
  return {
    async createModerationAction(req, ctx) {
      const em = callEm(ctx);
      const row = build(em, req, ctx, "");
      await em.flush();
      return { moderationAction: moderationActionMessage(row) };
    },

    async bulkCreateModerationActions(req, ctx) {
      if (req.bulk.length > MAX_BULK) {
        throw new ConnectError(`bulk must have at most ${MAX_BULK} entries`, Code.InvalidArgument);
      }
      const em = callEm(ctx);
      const rows = req.bulk.map((entry, i) => build(em, entry, ctx, `bulk[${i}].`));
      await em.flush(); // one transaction: all or none
      return { data: rows.map(moderationActionMessage) };
    },

    async listModerationActions(req, ctx) {
      const page = await adminList(callEm(ctx), MODERATION_ACTION_LIST, req.query ?? {});
      return { ...page, data: page.data.map((row) => moderationActionMessage(row as ModerationAction)) };
    },

    async getModerationAction(req, ctx) {
      return { moderationAction: moderationActionMessage(await find(callEm(ctx), req.id)) };
    },

    async updateModerationAction(req, ctx) {
      const em = callEm(ctx);
      const row = await find(em, req.id);
      const endsAt = parseDate(req.endsAt, "endsAt");
      if (req.actionType) row.actionType = req.actionType;
      if (req.role) row.role = req.role;
      if (req.previousRole) row.previousRole = req.previousRole;
      if (req.reason) row.reason = req.reason;
      if (endsAt) row.endsAt = endsAt;
      if (row.endsAt && row.actionType !== "temporaryBan" && !row.sourceEventId) {
        throw new ConnectError("endsAt is only for temporaryBan", Code.InvalidArgument);
      }
      await em.flush();
      return { moderationAction: moderationActionMessage(row) };
    },

    async deleteModerationAction(req, ctx) {
      const n = await callEm(ctx).nativeDelete(ModerationAction, { id: req.id.toLowerCase() });
      if (n === 0) throw new ConnectError(MODERATION_ACTION_NOT_FOUND, Code.NotFound);
      return {};
    },

    async getUserActions(req, ctx) {
      const identity = callIdentity(ctx);
      const userUuid = req.id.toLowerCase();
      if (identity.subject.toLowerCase() !== userUuid && !STAFF_ROLES.has(identity.role)) {
        throw new ConnectError("forbidden", Code.PermissionDenied);
      }
      const limit = checkLimit(req.limit, 20, 100);
      const [rows, total] = await callEm(ctx).findAndCount(
        ModerationAction,
        { userUuid },
        { orderBy: { createdAt: "DESC", id: "DESC" }, limit, offset: req.offset },
      );
      return { data: rows.map(moderationActionMessage), total };
    },
  };
}
