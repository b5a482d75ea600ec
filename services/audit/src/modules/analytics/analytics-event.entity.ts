import { defineEntity, p } from "@mikro-orm/core";

/**
 * One analytics event (spec 002 §7 "Analytics events"), append-only: written by the ingest consumer in
 * batches, never updated. The id is given at accept time, so a redelivered batch stores nothing twice.
 */
export const AnalyticsEventSchema = defineEntity({
  name: "AnalyticsEvent",
  tableName: "analytics_event",
  indexes: [{ properties: ["topic", "createdAt"] }, { properties: ["createdAt"] }],
  properties: {
    id: p.uuid().primary(),
    topic: p.string().length(40),
    record: p.json<Record<string, unknown>>(),
    platform: p.string().length(10),
    isDiscord: p.boolean(),
    isLoggedIn: p.boolean(),
    userUuid: p.uuid().nullable(),
    createdAt: p.datetime(),
  },
});

export class AnalyticsEvent extends AnalyticsEventSchema.class {}
AnalyticsEventSchema.setClass(AnalyticsEvent);
