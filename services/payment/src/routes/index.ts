import type { ConnectRouter } from "@connectrpc/connect";
import { ProductService } from "@tt/proto/tt/payment/v1/product_service_pb";
import { SubscriptionService } from "@tt/proto/tt/payment/v1/subscription_service_pb";
import { WebhookService } from "@tt/proto/tt/payment/v1/webhook_service_pb";
import type { PaymentContext } from "../context.ts";
import { productRoutes } from "./products.ts";
import { subscriptionRoutes } from "./subscriptions.ts";
import { webhookRoutes } from "./webhooks.ts";

/** The services of package tt.payment.v1, one per area. */
export const PAYMENT_SERVICES = [ProductService, SubscriptionService, WebhookService] as const;

export function registerPaymentRoutes(router: ConnectRouter, svc: PaymentContext): void {
  router.service(ProductService, productRoutes(svc));
  router.service(SubscriptionService, subscriptionRoutes(svc));
  router.service(WebhookService, webhookRoutes(svc));
}
