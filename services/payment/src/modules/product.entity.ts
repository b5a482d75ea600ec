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
