import type { ServiceDefinition } from "@tt/kit";
import { loadAuditServiceConfig } from "./config.ts";
import type { AuditContext } from "./context.ts";
import { entities } from "./entities.ts";
import { migrationsList } from "./migrations/index.ts";
import { createAnalyticsIngest } from "./modules/analytics/ingest.ts";
import { startModerationRecorders } from "./modules/moderation/recorder.ts";
import { AUDIT_SERVICES, registerAuditRoutes } from "./routes/index.ts";

export const auditServiceDefinition: ServiceDefinition = {
  name: "audit",
  services: [...AUDIT_SERVICES],
  entities,
  migrations: migrationsList,
  async create(deps) {
    const { analytics, moderation } = loadAuditServiceConfig(deps.env);
    // Fixed names: the bus keeps another deployment's stream and consumers apart (issue 23).
    const analyticsName = analytics.AUDIT_ANALYTICS_SUBJECT ?? "audit-analytics";
    const ingest = createAnalyticsIngest(deps.bus, analyticsName, analytics.AUDIT_ANALYTICS_BATCH_SIZE, deps.logger, {
      maxAgeMs: analytics.AUDIT_ANALYTICS_STREAM_MAX_AGE_HOURS * 3_600_000,
      maxBytes: analytics.AUDIT_ANALYTICS_STREAM_MAX_BYTES,
    });
    const writer = await ingest.startWriter(deps.orm, `${analyticsName}-writer`);
    const recorders = await startModerationRecorders(
      deps.bus,
      deps.orm,
      moderation.AUDIT_MODERATION_DURABLE ?? "audit-moderation",
      deps.logger,
    );
    const svc: AuditContext = {
      analyticsConfig: analytics,
      ingest,
      consumers: recorders.consumers,
      startedAt: Date.now(),
      logger: deps.logger,
      orm: deps.orm,
      bus: deps.bus,
    };
    return {
      routes: (router) => registerAuditRoutes(router, svc),
      async close() {
        await ingest.close();
        await Promise.all([writer.unsubscribe(), recorders.subscription.unsubscribe()]);
      },
    };
  },
};

export { AUDIT_SERVICES };
