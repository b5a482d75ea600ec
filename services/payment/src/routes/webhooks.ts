// Providers' notifications. Stripe's Stripe-Signature and Apple's signed JWS are the only authentication:
// anything unverifiable is a 400. Each event is handled once: its id goes into webhook_event in the same
// transaction as its effects (a replay, even a concurrent one, finds the row and changes nothing).
import { X509Certificate } from "node:crypto";
import { Code, ConnectError, type HandlerContext, type ServiceImpl } from "@connectrpc/connect";
import { LockMode } from "@mikro-orm/core";
import type { EntityManager } from "@mikro-orm/postgresql";
import { callEm, isUuid } from "@tt/kit";
import type { WebhookService } from "@tt/proto/tt/payment/v1/webhook_service_pb";
import type { PaymentContext } from "../context.ts";
import { db } from "../db.ts";
import { JwsRefused, verifyAppleJws } from "../modules/apple-jws.ts";
import { Checkout } from "../modules/checkout.entity.ts";
import { Product } from "../modules/product.entity.ts";
import { Subscription } from "../modules/subscription.entity.ts";
import { ACTIVE, announceLevel, completeCheckout, type ProviderSubscriptionInfo } from "../modules/fulfil.ts";
import { verifyStripeSignature } from "../modules/stripe-signature.ts";
import { MAX_CHECKOUT_QUANTITY } from "./products.ts";

export const INVALID_STRIPE_SIGNATURE = "invalid Stripe signature";
export const INVALID_STRIPE_EVENT = "invalid Stripe event";
export const INVALID_APPLE_NOTIFICATION = "invalid App Store notification";

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
/** A string of the provider's payload that fits our columns (ids up to 100 characters); anything else: absent. */
const str = (v: unknown, max = 100): string | undefined => (typeof v === "string" && v.length <= max ? v : undefined);

/** Stripe's subscription statuses to ours. */
function statusOf(stripe: string): string {
  if (stripe === "active" || stripe === "trialing") return ACTIVE;
  if (stripe === "past_due" || stripe === "unpaid") return "past_due";
  if (stripe === "incomplete") return "incomplete";
  return "canceled";
}

/** Records the event id; false when it was recorded before (by this or a concurrent delivery). */
async function firstDelivery(tem: EntityManager, id: string, type: string): Promise<boolean> {
  const rows = await db(tem)
    .insertInto("webhook_event")
    .values({ id: id.slice(0, 200), type: type.slice(0, 100), received_at: new Date() })
    .onConflict((oc) => oc.column("id").doNothing())
    .returning("id")
    .execute();
  return rows.length === 1;
}

async function lockCheckout(tem: EntityManager, where: { id?: string; sessionId?: string }) {
  if (where.id && !isUuid(where.id)) return null;
  return tem.findOne(Checkout, where, { lockMode: LockMode.PESSIMISTIC_WRITE });
}

export function webhookRoutes(svc: PaymentContext): ServiceImpl<typeof WebhookService> {
  const { config } = svc;
  const stripeSecrets = (config.STRIPE_WEBHOOK_SECRET ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const appleRoot = config.APPLE_ROOT_CA_PEM ? new X509Certificate(config.APPLE_ROOT_CA_PEM) : undefined;

  const inTransaction = <T>(ctx: HandlerContext, work: (tem: EntityManager) => Promise<T>) =>
    callEm(ctx).fork().transactional(work);

  return {
    async stripeWebhook(req, ctx) {
      const raw = Buffer.from(req.body?.data ?? new Uint8Array());
      const header = ctx.requestHeader.get("stripe-signature");
      const now = Math.floor(Date.now() / 1000);
      if (!verifyStripeSignature(header, raw, stripeSecrets, now, config.STRIPE_WEBHOOK_TOLERANCE_S)) {
        throw new ConnectError(INVALID_STRIPE_SIGNATURE, Code.InvalidArgument);
      }
      let event: unknown;
      try {
        event = JSON.parse(raw.toString("utf8"));
      } catch {
        throw new ConnectError(INVALID_STRIPE_EVENT, Code.InvalidArgument);
      }
      const id = isObj(event) ? str(event.id) : undefined;
      const type = isObj(event) ? str(event.type) : undefined;
      const object = isObj(event) && isObj(event.data) && isObj(event.data.object) ? event.data.object : undefined;
      if (!id || !type || !object) throw new ConnectError(INVALID_STRIPE_EVENT, Code.InvalidArgument);

      // A paid subscription checkout: the subscription's period from Stripe, before the transaction.
      let info: ProviderSubscriptionInfo = {};
      const completed = type === "checkout.session.completed" || type === "checkout.session.async_payment_succeeded";
      if (completed && object.mode === "subscription" && str(object.subscription)) {
        const sub = await svc.provider.getSubscription(str(object.subscription)!).catch(() => undefined);
        info = {
          stripeSubscriptionId: str(object.subscription),
          stripeCustomerId: str(object.customer) ?? sub?.customerId,
          currentPeriodEnd: sub?.currentPeriodEnd,
        };
      }

      const applied = await inTransaction(ctx, async (tem) => {
        if (!(await firstDelivery(tem, `stripe:${id}`, type))) return false;
        if (completed) {
          // An asynchronous payment method completes the session unpaid: wait for async_payment_succeeded.
          if (type === "checkout.session.completed" && object.payment_status === "unpaid") return true;
          const ref = str(object.client_reference_id);
          const checkout =
            (ref ? await lockCheckout(tem, { id: ref }) : null) ??
            (str(object.id) ? await lockCheckout(tem, { sessionId: str(object.id)! }) : null);
          if (checkout) await completeCheckout(tem, checkout, info);
        } else if (type === "customer.subscription.updated" || type === "customer.subscription.deleted") {
          const sub = str(object.id)
            ? await tem.findOne(Subscription, { stripeSubscriptionId: str(object.id)! })
            : null;
          if (sub) {
            sub.status = type === "customer.subscription.deleted" ? "canceled" : statusOf(str(object.status) ?? "");
            if (typeof object.current_period_end === "number") {
              sub.currentPeriodEnd = new Date(object.current_period_end * 1000);
            }
            sub.updatedAt = new Date();
            await announceLevel(tem, sub);
          }
        }
        await tem.flush();
        return true;
      });
      return { received: true, applied };
    },

    async appleWebhook(req, ctx) {
      const refuse = () => new ConnectError(INVALID_APPLE_NOTIFICATION, Code.InvalidArgument);
      if (!appleRoot) throw refuse();
      let body: unknown;
      try {
        body = JSON.parse(Buffer.from(req.body?.data ?? new Uint8Array()).toString("utf8"));
      } catch {
        throw refuse();
      }
      const signed = isObj(body) ? str(body.signedPayload, 200_000) : undefined;
      let payload: Json;
      let transaction: Json = {};
      try {
        payload = await verifyAppleJws(String(signed ?? ""), appleRoot);
        const data = isObj(payload.data) ? payload.data : {};
        if (config.APPLE_BUNDLE_ID && data.bundleId !== config.APPLE_BUNDLE_ID) throw new JwsRefused("bundle");
        if (typeof data.signedTransactionInfo === "string") {
          transaction = await verifyAppleJws(data.signedTransactionInfo, appleRoot);
        }
      } catch (err) {
        if (err instanceof JwsRefused) throw refuse();
        throw err;
      }
      const id = str(payload.notificationUUID);
      const type = str(payload.notificationType);
      if (!id || !type) throw refuse();

      const applied = await inTransaction(ctx, async (tem) => {
        if (!(await firstDelivery(tem, `apple:${id}`, type))) return false;
        // Our product ids are the App Store product ids; appAccountToken is the buyer's user uuid.
        const productId = str(transaction.productId);
        const userUuid = str(transaction.appAccountToken)?.toLowerCase();
        const transactionId = str(transaction.originalTransactionId, 80) ?? str(transaction.transactionId, 80);
        if (!productId || !isUuid(productId) || !userUuid || !isUuid(userUuid) || !transactionId) return true;
        const product = await tem.findOne(Product, { id: productId.toLowerCase() });
        if (!product) return true;
        if (type === "ONE_TIME_CHARGE" && product.paymentType === "one_time") {
          const sessionId = `apple:${str(transaction.transactionId, 80) ?? transactionId}`;
          if (await tem.findOne(Checkout, { sessionId })) return true;
          const checkout = tem.create(Checkout, {
            sessionId,
            userUuid,
            productId: product.id,
            mode: "payment",
            quantity:
              typeof transaction.quantity === "number"
                ? Math.max(1, Math.min(MAX_CHECKOUT_QUANTITY, transaction.quantity))
                : 1,
            region: str(transaction.storefront, 50) ?? "",
            successPath: "/",
            cancelPath: "/",
            status: "pending",
            completedAt: null,
          });
          await completeCheckout(tem, checkout);
        } else if (product.paymentType === "recurring") {
          const appleId = `apple:${transactionId}`;
          let sub = await tem.findOne(Subscription, { stripeSubscriptionId: appleId });
          const status = ["SUBSCRIBED", "DID_RENEW"].includes(type)
            ? ACTIVE
            : ["EXPIRED", "REVOKE", "REFUND"].includes(type)
              ? "canceled"
              : type === "DID_FAIL_TO_RENEW"
                ? "past_due"
                : undefined;
          if (!status) return true;
          sub ??= tem.create(Subscription, {
            userUuid,
            productId: product.id,
            level: product.level,
            status,
            region: str(transaction.storefront, 50) ?? "",
            stripeSubscriptionId: appleId,
            stripeCustomerId: null,
            currentPeriodEnd: null,
          });
          sub.status = status;
          if (typeof transaction.expiresDate === "number") sub.currentPeriodEnd = new Date(transaction.expiresDate);
          sub.updatedAt = new Date();
          await announceLevel(tem, sub);
        }
        await tem.flush();
        return true;
      });
      return { received: true, applied };
    },
  };
}
