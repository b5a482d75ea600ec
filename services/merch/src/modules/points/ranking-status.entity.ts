import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";

/** A user's points in one season (written by awardPoints only). */
export const RankingStatusSchema = defineEntity({
  name: "RankingStatus",
  tableName: "ranking_status",
  uniques: [{ properties: ["seasonId", "userUuid"] }],
  indexes: [{ properties: ["seasonId", "balance"] }],
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    userUuid: p.uuid().index(),
    seasonId: p.uuid(),
    balance: p.integer().default(0),
    updatedAt: p.datetime().onCreate(() => new Date()),
  },
});
export class RankingStatus extends RankingStatusSchema.class {}
RankingStatusSchema.setClass(RankingStatus);
