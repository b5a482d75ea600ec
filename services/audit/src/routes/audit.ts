// Info-admin (status, event names, last event) and the error-reporting test.
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import { callEm, callIdentity, pingDatabase } from "@tt/kit";
import type { AuditService } from "@tt/proto/tt/audit/v1/audit_service_pb";
import type { AuditContext } from "../context.ts";
import { ModerationAction } from "../modules/moderation/moderation-action.entity.ts";
import { SOCKET_EVENT_NAMES, USER_EVENT_NAMES } from "../modules/moderation/recorder.ts";
import { ts } from "./messages.ts";

export const NO_EVENT_YET = "no event recorded yet";

export function auditRoutes(svc: AuditContext): ServiceImpl<typeof AuditService> {
  return {
    async getStatus(_req, ctx) {
      const database = await pingDatabase(callEm(ctx)).then(
        () => true,
        () => false,
      );
      const bus = await svc.bus.healthy().catch(() => false);
      return {
        status: database && bus ? "ok" : "degraded",
        service: "audit",
        database,
        bus,
        uptimeSeconds: BigInt(Math.floor((Date.now() - svc.startedAt) / 1000)),
        consumers: svc.consumers,
      };
    },

    listSocketEventNames() {
      return { names: SOCKET_EVENT_NAMES };
    },

    listUserEventNames() {
      return { names: USER_EVENT_NAMES };
    },

    async getLastEvent(_req, ctx) {
      const [last] = await callEm(ctx).find(
        ModerationAction,
        { sourceEventId: { $ne: null } },
        { orderBy: { createdAt: "DESC", id: "DESC" }, limit: 1 },
      );
      if (!last) throw new ConnectError(NO_EVENT_YET, Code.NotFound);
      return {
        eventId: last.sourceEventId ?? "",
        subject: last.sourceSubject ?? "",
        actionId: last.id,
        recordedAt: ts(last.createdAt),
      };
    },

    sentryTesting(req, ctx) {
      svc.logger.error(
        { by: callIdentity(ctx).subject, message: req.message || "error-reporting test" },
        "error-reporting test (POST /sentry-testing)",
      );
      return { reported: true };
    },
  };
}
