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
