// Subscriptions: the caller's and a user's, the plans, their checkout, the customer portal and the count.
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import type { EntityManager, FilterQuery } from "@mikro-orm/postgresql";
import { callEm, callIdentity, checkLimit, UNAUTHORIZED, wireName } from "@tt/kit";
import { callProvider } from "@tt/providers";
import { PaymentType, PaymentTypeSchema } from "@tt/proto/tt/payment/v1/payment_pb";
import type { SubscriptionService } from "@tt/proto/tt/payment/v1/subscription_service_pb";
import type { PaymentContext } from "../context.ts";
import { Product } from "../modules/product.entity.ts";
import { Subscription } from "../modules/subscription.entity.ts";
import { ACTIVE, currentLevel } from "../modules/fulfil.ts";
import { isStaff, PRODUCT_NOT_FOUND, productMessage, siteUrl, subscriptionMessage } from "./messages.ts";
import { findProduct, startCheckout } from "./products.ts";

const RECURRING = wireName(PaymentTypeSchema, PaymentType.RECURRING);
export const NOT_A_PLAN = "product is not a subscription plan";
export const ALREADY_SUBSCRIBED = "you already have this subscription";
export const NOTHING_TO_MANAGE = "no subscription to manage";
export const SUBSCRIPTION_PAGE_SIZE = 20;
const MAX_PAGE = 100;

function parseDate(value: string, field: string): Date | undefined {
  if (!value) return undefined;
  const d = new Date(value);
  // Years 1–9999 (PostgreSQL has no year 0).
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(d.getTime()) || d.getUTCFullYear() < 1) {
    throw new ConnectError(`${field} must be an ISO 8601 date`, Code.InvalidArgument);
  }
  return d;
}

async function listOf(em: EntityManager, userUuid: string, offset: number, limitIn: number) {
  const limit = checkLimit(limitIn, SUBSCRIPTION_PAGE_SIZE, MAX_PAGE);
  const [rows, total] = await em.findAndCount(
    Subscription,
    { userUuid },
    { orderBy: { createdAt: "desc", id: "asc" }, limit, offset },
  );
  // The current plan first.
  rows.sort((a, b) => Number(b.status === ACTIVE) - Number(a.status === ACTIVE));
  return { subscriptions: rows.map(subscriptionMessage), total, level: await currentLevel(em, userUuid) };
}

export function subscriptionRoutes(svc: PaymentContext): ServiceImpl<typeof SubscriptionService> {
  return {
    async countSubscriptions(req, ctx) {
      const start = parseDate(req.startDate, "startDate");
      const end = parseDate(req.endDate, "endDate");
      const where: FilterQuery<Subscription> = {};
      if (start || end) where.createdAt = { ...(start && { $gte: start }), ...(end && { $lte: end }) };
      if (req.region) where.region = req.region;
      if (req.level) where.level = req.level;
      return { count: await callEm(ctx).count(Subscription, where) };
    },

    async listMySubscriptions(req, ctx) {
      return listOf(callEm(ctx), callIdentity(ctx).subject, req.offset, req.limit);
    },

    async listUserSubscriptions(req, ctx) {
      const identity = callIdentity(ctx);
      const id = req.id.toLowerCase();
      if (identity.tokenType !== "service" && identity.subject !== id && !isStaff(identity)) {
        throw new ConnectError(UNAUTHORIZED, Code.Unauthenticated);
      }
      return listOf(callEm(ctx), id, req.offset, req.limit);
    },

    async checkoutSubscription(req, ctx) {
      const em = callEm(ctx);
      const userUuid = callIdentity(ctx).subject;
      const product = await findProduct(em, req.id);
      if (!product.active) throw new ConnectError(PRODUCT_NOT_FOUND, Code.NotFound);
      if (product.paymentType !== RECURRING) throw new ConnectError(NOT_A_PLAN, Code.InvalidArgument);
      const existing = await em.findOne(Subscription, { userUuid, productId: product.id, status: ACTIVE });
      if (existing) throw new ConnectError(ALREADY_SUBSCRIBED, Code.AlreadyExists);
      const known = await em.findOne(
        Subscription,
        { userUuid, stripeCustomerId: { $ne: null } },
        { orderBy: { createdAt: "desc" } },
      );
      const session = await startCheckout(
        svc,
        em,
        {
          product,
          userUuid,
          mode: "subscription",
          quantity: 1,
          region: req.region,
          successPath: req.successPath,
          cancelPath: req.cancelPath,
          customerId: known?.stripeCustomerId ?? undefined,
        },
        ctx.signal,
      );
      return { session };
    },

    async createPortalSession(req, ctx) {
      const em = callEm(ctx);
      const userUuid = callIdentity(ctx).subject;
      const subs = await em.find(Subscription, { userUuid }, { orderBy: { createdAt: "desc" }, limit: 1 });
      const sub = subs[0];
      if (!sub) throw new ConnectError(NOTHING_TO_MANAGE, Code.NotFound);
      const returnUrl = siteUrl(svc.publicUrl, req.returnPath);
      if (svc.provider.kind === "stripe" && !sub.stripeCustomerId) {
        throw new ConnectError(NOTHING_TO_MANAGE, Code.NotFound);
      }
      const { url } = await callProvider("Stripe", () =>
        svc.provider.createPortalSession({ customerId: sub.stripeCustomerId ?? "", returnUrl }),
      );
      return { url };
    },

    async listSubscriptionProducts(_req, ctx) {
      const rows = await callEm(ctx).find(
        Product,
        { paymentType: RECURRING, active: true },
        { orderBy: { price: "asc", id: "asc" }, limit: MAX_PAGE },
      );
      return { products: rows.map(productMessage) };
    },
  };
}
