import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";

/** One applied awarding event: its eventKey is unique, so replaying the event awards nothing. */
export const PointsAwardSchema = defineEntity({
  name: "PointsAward",
  tableName: "points_award",
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    eventKey: p.string().length(220).unique(),
    userUuid: p.uuid().index(),
    seasonId: p.uuid().nullable(),
    points: p.integer(),
    reason: p.string().length(200).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export class PointsAward extends PointsAwardSchema.class {}
PointsAwardSchema.setClass(PointsAward);
