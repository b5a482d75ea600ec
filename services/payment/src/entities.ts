import { OutboxMessageSchema } from "@tt/kit";
import { CheckoutSchema, ProductSchema, SubscriptionSchema, WebhookEventSchema } from "./modules/entities.ts";

/** Every entity of the payment service, listed explicitly. */
export const entities = [
  ProductSchema,
  CheckoutSchema,
  SubscriptionSchema,
  WebhookEventSchema,
  // ProductPurchased and SubscriptionChanged leave through the transactional outbox.
  OutboxMessageSchema,
];
