import { OutboxMessageSchema } from "@tt/kit";
import { CheckoutSchema } from "./modules/checkout.entity.ts";
import { ProductSchema } from "./modules/product.entity.ts";
import { SubscriptionSchema } from "./modules/subscription.entity.ts";
import { WebhookEventSchema } from "./modules/webhook-event.entity.ts";

/** Every entity of the payment service, listed explicitly. */
export const entities = [
  ProductSchema,
  CheckoutSchema,
  SubscriptionSchema,
  WebhookEventSchema,
  // ProductPurchased and SubscriptionChanged leave through the transactional outbox.
  OutboxMessageSchema,
];
