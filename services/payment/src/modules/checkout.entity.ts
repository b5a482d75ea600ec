// The payment service's tables (schema "payment"): products, checkouts (one per checkout session),
// subscriptions and the webhook events already handled (idempotency by the provider's event id).
import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";

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
