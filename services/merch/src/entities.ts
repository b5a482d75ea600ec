import { OutboxMessageSchema, ProcessedEventSchema } from "@tt/kit";
import { AvatarAssignmentSchema } from "./modules/avatars/avatar-assignment.entity.ts";
import { AvatarSchema } from "./modules/avatars/avatar.entity.ts";
import { ConsumablePurchaseSchema } from "./modules/ledger/consumable-purchase.entity.ts";
import { TokenAccountSchema } from "./modules/ledger/token-account.entity.ts";
import { TokenTransactionSchema } from "./modules/ledger/token-transaction.entity.ts";
import { CustomFieldSchema } from "./modules/misc/custom-field.entity.ts";
import { LifetimeRankingStatusSchema } from "./modules/points/lifetime-ranking-status.entity.ts";
import { PointsAwardSchema } from "./modules/points/points-award.entity.ts";
import { RankingStatusSchema } from "./modules/points/ranking-status.entity.ts";
import { SeasonSchema } from "./modules/points/season.entity.ts";
import { ConsumableFileSchema } from "./modules/shop/consumable-file.entity.ts";
import { ConsumableSchema } from "./modules/shop/consumable.entity.ts";
import { TokenBundleSchema } from "./modules/shop/token-bundle.entity.ts";

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
