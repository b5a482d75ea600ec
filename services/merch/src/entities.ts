import { OutboxMessageSchema, ProcessedEventSchema } from "@tt/kit";
import { AvatarAssignmentSchema } from "./modules/avatars/avatar-assignment.entity.ts";
import { AvatarSchema } from "./modules/avatars/avatar.entity.ts";
import {
  ConsumablePurchaseSchema,
  TokenAccountSchema,
  TokenTransactionSchema,
} from "./modules/ledger/ledger.entities.ts";
import { CustomFieldSchema } from "./modules/misc/custom-field.entity.ts";
import {
  LifetimeRankingStatusSchema,
  PointsAwardSchema,
  RankingStatusSchema,
} from "./modules/points/ranking-status.entity.ts";
import { SeasonSchema } from "./modules/points/season.entity.ts";
import { ConsumableFileSchema, ConsumableSchema, TokenBundleSchema } from "./modules/shop/shop.entities.ts";

/** Every entity of the merch service, listed explicitly. */
export const entities = [
  AvatarSchema,
  AvatarAssignmentSchema,
  SeasonSchema,
  RankingStatusSchema,
  LifetimeRankingStatusSchema,
  PointsAwardSchema,
  TokenAccountSchema,
  TokenTransactionSchema,
  ConsumablePurchaseSchema,
  ConsumableFileSchema,
  ConsumableSchema,
  TokenBundleSchema,
  CustomFieldSchema,
  // The ConsumablePurchased event leaves through the transactional outbox.
  OutboxMessageSchema,
  // Marks of the consumed payment events (ProductPurchased).
  ProcessedEventSchema,
];
