// The payment service's tables (schema "payment"): products, checkouts (one per checkout session),
// subscriptions and the webhook events already handled (idempotency by the provider's event id).
import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";

export const ProductSchema = defineEntity({
  name: "Product",
  tableName: "product",
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    name: p.string().length(100),
    description: p.string().length(1000),
    paymentType: p.string().length(20),
    price: p.integer(),
    currency: p.string().length(3),
    stripePriceId: p.string().length(100),
    level: p.string().length(50),
    active: p.boolean(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()),
  },
});
export class Product extends ProductSchema.class {}
ProductSchema.setClass(Product);

export const CheckoutSchema = defineEntity({
  name: "Checkout",
  tableName: "checkout",
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    sessionId: p.string().length(100).unique(),
    userUuid: p.uuid().index(),
    productId: p.uuid(),
    /** "payment" (one-time) or "subscription". */
    mode: p.string().length(20),
    quantity: p.integer(),
    region: p.string().length(50),
    successPath: p.string().length(500),
    cancelPath: p.string().length(500),
    /** "pending" or "completed". */
    status: p.string().length(20),
    createdAt: p.datetime().onCreate(() => new Date()),
    completedAt: p.datetime().nullable(),
  },
});
export class Checkout extends CheckoutSchema.class {}
CheckoutSchema.setClass(Checkout);

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

export const WebhookEventSchema = defineEntity({
  name: "WebhookEvent",
  tableName: "webhook_event",
  properties: {
    /** "<provider>:<event id>". */
    id: p.string().length(200).primary(),
    type: p.string().length(100),
    receivedAt: p.datetime().onCreate(() => new Date()),
  },
});
export class WebhookEvent extends WebhookEventSchema.class {}
WebhookEventSchema.setClass(WebhookEvent);
