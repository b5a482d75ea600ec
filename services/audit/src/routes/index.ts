import type { ConnectRouter } from "@connectrpc/connect";
import { AnalyticsService } from "@tt/proto/tt/audit/v1/analytics_service_pb";
import { AuditService } from "@tt/proto/tt/audit/v1/audit_service_pb";
import { GeolocationService } from "@tt/proto/tt/audit/v1/geolocation_service_pb";
import { ModerationService } from "@tt/proto/tt/audit/v1/moderation_service_pb";
import type { AuditContext } from "../context.ts";
import { analyticsRoutes } from "./analytics.ts";
import { auditRoutes } from "./audit.ts";
import { geolocationRoutes } from "./geolocation.ts";
import { moderationRoutes } from "./moderation.ts";

/** The services of package tt.audit.v1, one per area. */
export const AUDIT_SERVICES = [AuditService, ModerationService, AnalyticsService, GeolocationService] as const;

export function registerAuditRoutes(router: ConnectRouter, svc: AuditContext): void {
  router.service(AuditService, auditRoutes(svc));
  router.service(ModerationService, moderationRoutes(svc));
  router.service(AnalyticsService, analyticsRoutes(svc));
  router.service(GeolocationService, geolocationRoutes());
}
