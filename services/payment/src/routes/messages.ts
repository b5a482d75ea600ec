import { create } from "@bufbuild/protobuf";
import {
  ProductSchema as ProductMessageSchema,
  SubscriptionSchema as SubscriptionMessageSchema,
  type Product as ProductMessage,
  type Subscription as SubscriptionMessage,
} from "@tt/proto/tt/payment/v1/payment_pb";
import type { Identity } from "@tt/kit";
import type { Product } from "../modules/product.entity.ts";
import type { Subscription } from "../modules/subscription.entity.ts";
import { optionalTimestamp as ts } from "@tt/kit";

export const PRODUCT_NOT_FOUND = "product not found";

export function productMessage(p: Product): ProductMessage {
  return create(ProductMessageSchema, {
    id: p.id,
    name: p.name,
    description: p.description,
    paymentType: p.paymentType,
    price: p.price,
    currency: p.currency,
    stripePriceId: p.stripePriceId,
    level: p.level,
    active: p.active,
    createdAt: ts(p.createdAt),
    updatedAt: ts(p.updatedAt),
  });
}

export function subscriptionMessage(s: Subscription): SubscriptionMessage {
  return create(SubscriptionMessageSchema, {
    id: s.id,
    userUuid: s.userUuid,
    productId: s.productId,
    level: s.level,
    status: s.status,
    region: s.region,
    currentPeriodEnd: ts(s.currentPeriodEnd),
    createdAt: ts(s.createdAt),
    updatedAt: ts(s.updatedAt),
  });
}

/** Admins and staff run the catalogue and read anyone's subscriptions. */
export function isStaff(identity: Identity | undefined): boolean {
  return !!identity && ["admin", "superUser", "staff"].includes(identity.role);
}

/** A provider redirect URL: the site's origin (empty in development: relative) and a path of the site. */
export function siteUrl(publicUrl: string, path: string): string {
  return `${publicUrl.replace(/\/$/, "")}${path || "/"}`;
}
