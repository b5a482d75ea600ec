// What a paid checkout and a subscription change do, the same for Stripe's webhooks and the development pay
// page: each writes its rows and its event (outbox) in the caller's flush, so both happen or neither does.
import type { EntityManager } from "@mikro-orm/postgresql";
import { publishEvent } from "@tt/kit";
import { ProductPurchasedSchema, SubscriptionChangedSchema } from "@tt/proto/tt/payment/v1/events_pb";
import type { Checkout } from "./checkout.entity.ts";
import { Product } from "./product.entity.ts";
import { Subscription } from "./subscription.entity.ts";

export const ACTIVE = "active";

/** The level a user has: the newest active subscription's, "" when none. */
export async function currentLevel(em: EntityManager, userUuid: string): Promise<string> {
  const active = await em.findOne(Subscription, { userUuid, status: ACTIVE }, { orderBy: { createdAt: "desc" } });
  return active?.level ?? "";
}

/** Announces the user's level after a change to one of their subscriptions (flushed by the caller). */
export async function announceLevel(em: EntityManager, sub: Subscription): Promise<void> {
  await em.flush(); // the level reads the changed row
  const level = await currentLevel(em, sub.userUuid);
  publishEvent(em, SubscriptionChangedSchema, {
    userUuid: sub.userUuid,
    level,
    status: sub.status,
    subscriptionId: sub.id,
    productId: sub.productId,
  });
}

export interface ProviderSubscriptionInfo {
  stripeSubscriptionId?: string;
  stripeCustomerId?: string;
  currentPeriodEnd?: Date;
}

/**
 * Marks a pending checkout paid. A one-time product's purchase publishes ProductPurchased (the merch service
 * credits a token bundle's tokens once per purchase); a plan's creates the active subscription and announces
 * the level. Answers false (and changes nothing) when the checkout was completed before. Runs inside the
 * caller's transaction; the caller flushes.
 */
export async function completeCheckout(
  em: EntityManager,
  checkout: Checkout,
  info: ProviderSubscriptionInfo = {},
): Promise<boolean> {
  if (checkout.status === "completed") return false;
  checkout.status = "completed";
  checkout.completedAt = new Date();
  if (checkout.mode === "payment") {
    publishEvent(em, ProductPurchasedSchema, {
      purchaseId: checkout.id,
      userUuid: checkout.userUuid,
      productId: checkout.productId,
      quantity: checkout.quantity,
    });
    await em.flush();
    return true;
  }
  const product = await em.findOne(Product, { id: checkout.productId });
  const sub = em.create(Subscription, {
    userUuid: checkout.userUuid,
    productId: checkout.productId,
    level: product?.level ?? "",
    status: ACTIVE,
    region: checkout.region,
    stripeSubscriptionId: info.stripeSubscriptionId ?? null,
    stripeCustomerId: info.stripeCustomerId ?? null,
    currentPeriodEnd: info.currentPeriodEnd ?? null,
  });
  await announceLevel(em, sub);
  await em.flush();
  return true;
}
