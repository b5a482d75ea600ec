import { ProcessedEventSchema } from "@tt/kit";
import { AnalyticsEventSchema } from "./modules/analytics/analytics-event.entity.ts";
import { ModerationActionSchema } from "./modules/moderation/moderation-action.entity.ts";

/** Every entity of the audit service, listed explicitly. */
export const entities = [
  ModerationActionSchema,
  AnalyticsEventSchema,
  // The moderation events of the user and room services are consumed once per event id.
  ProcessedEventSchema,
];
