import type { MikroORM } from "@mikro-orm/postgresql";
import type { Bus } from "@tt/kit";
import type { Logger } from "pino";
import type { AnalyticsConfig } from "./config.ts";
import type { AnalyticsIngest } from "./modules/analytics/ingest.ts";

/** What the routes get from create. */
export interface AuditContext {
  analyticsConfig: AnalyticsConfig;
  ingest: AnalyticsIngest;
  /** The durable consumers recording moderation events (status). */
  consumers: string[];
  startedAt: number;
  logger: Logger;
  orm: MikroORM;
  bus: Bus;
}
