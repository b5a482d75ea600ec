import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";

/** A consumable bought; the idempotency key and the request's hash answer a retry with the first answer. */
export const ConsumablePurchaseSchema = defineEntity({
  name: "ConsumablePurchase",
  tableName: "consumable_purchase",
  uniques: [{ properties: ["userUuid", "idempotencyKey"] }],
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    accountId: p.uuid().index(),
    userUuid: p.uuid(),
    consumableId: p.uuid(),
    tokenCost: p.integer(),
    roomUuid: p.uuid().nullable(),
    idempotencyKey: p.string().length(255).nullable(),
    requestHash: p.string().length(64),
    balanceAfter: p.integer(),
    accountUpdatedAt: p.datetime(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export class ConsumablePurchase extends ConsumablePurchaseSchema.class {}
ConsumablePurchaseSchema.setClass(ConsumablePurchase);
