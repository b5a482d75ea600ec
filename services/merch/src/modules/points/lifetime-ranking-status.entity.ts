import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";

/** A user's points in all seasons together (the lifetime variant). */
export const LifetimeRankingStatusSchema = defineEntity({
  name: "LifetimeRankingStatus",
  tableName: "lifetime_ranking_status",
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    userUuid: p.uuid().unique(),
    balance: p.integer().default(0).index(),
    updatedAt: p.datetime().onCreate(() => new Date()),
  },
});
export class LifetimeRankingStatus extends LifetimeRankingStatusSchema.class {}
LifetimeRankingStatusSchema.setClass(LifetimeRankingStatus);
