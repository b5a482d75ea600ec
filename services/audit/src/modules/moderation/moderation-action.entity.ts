import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";

/** One moderation log entry (spec 002 §3 "Moderation action"), recorded from a bus event or entered by hand. */
export const ModerationActionSchema = defineEntity({
  name: "ModerationAction",
  tableName: "moderation_action",
  indexes: [{ properties: ["userUuid", "createdAt"] }, { properties: ["createdAt"] }],
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    actionType: p.string().length(20).index(),
    userUuid: p.uuid(),
    moderatorUuid: p.uuid().nullable(),
    roomUuid: p.uuid().nullable(),
    role: p.string().length(32).nullable(),
    previousRole: p.string().length(32).nullable(),
    reason: p.string().length(500).nullable(),
    endsAt: p.datetime().nullable(),
    /** The bus event it was recorded from: at most one entry per event. */
    sourceEventId: p.string().length(255).nullable().unique(),
    sourceSubject: p.string().length(255).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});

export class ModerationAction extends ModerationActionSchema.class {}
ModerationActionSchema.setClass(ModerationAction);
