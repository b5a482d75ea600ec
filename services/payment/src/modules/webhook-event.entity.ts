// The payment service's tables (schema "payment"): products, checkouts (one per checkout session),
// subscriptions and the webhook events already handled (idempotency by the provider's event id).
import { defineEntity, p } from "@mikro-orm/core";

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
