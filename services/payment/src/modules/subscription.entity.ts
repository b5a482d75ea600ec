// The payment service's tables (schema "payment"): products, checkouts (one per checkout session),
// subscriptions and the webhook events already handled (idempotency by the provider's event id).
import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";

export const SubscriptionSchema = defineEntity({
  name: "Subscription",
  tableName: "subscription",
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    userUuid: p.uuid().index(),
    productId: p.uuid(),
    level: p.string().length(50),
    status: p.string().length(20),
    region: p.string().length(50),
    stripeSubscriptionId: p.string().length(100).nullable().unique(),
    stripeCustomerId: p.string().length(100).nullable(),
    currentPeriodEnd: p.datetime().nullable(),
    createdAt: p
      .datetime()
      .onCreate(() => new Date())
      .index(),
    updatedAt: p.datetime().onCreate(() => new Date()),
  },
});
export class Subscription extends SubscriptionSchema.class {}
SubscriptionSchema.setClass(Subscription);
