// Rows → proto messages, and the small parsers the route files share.
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { ModerationActionSchema as ModerationActionMessage } from "@tt/proto/tt/audit/v1/audit_pb";
import { optionalTimestamp as ts } from "@tt/kit";
import type { ModerationAction } from "../modules/moderation/moderation-action.entity.ts";

export { ts };

export function moderationActionMessage(a: ModerationAction) {
  return create(ModerationActionMessage, {
    id: a.id,
    actionType: a.actionType,
    userUuid: a.userUuid,
    moderatorUuid: a.moderatorUuid ?? "",
    roomUuid: a.roomUuid ?? "",
    role: a.role ?? "",
    previousRole: a.previousRole ?? "",
    reason: a.reason ?? "",
    endsAt: ts(a.endsAt),
    sourceEventId: a.sourceEventId ?? "",
    sourceSubject: a.sourceSubject ?? "",
    createdAt: ts(a.createdAt),
    updatedAt: ts(a.updatedAt),
  });
}

const ISO = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** An ISO 8601 date or date-time between the years 1970 and 9999, else 400 "<field> must be an ISO 8601 date". */
export function parseDate(value: string, field: string): Date | undefined {
  if (value === "") return undefined;
  const d = new Date(value);
  if (!ISO.test(value) || Number.isNaN(d.getTime()) || d.getTime() < 0 || d.getUTCFullYear() > 9999) {
    throw new ConnectError(`${field} must be an ISO 8601 date`, Code.InvalidArgument);
  }
  return d;
}
