import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";

/** A browser push subscription (PushSubscription.toJSON()), owned by the user who stored it last. */
export const WebPushSubscriptionSchema = defineEntity({
  name: "WebPushSubscription",
  tableName: "web_push_subscription",
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    userId: p.uuid().index(),
    endpoint: p.string().length(1024).unique(),
    p256dh: p.string().length(200),
    auth: p.string().length(100),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});

export class WebPushSubscription extends WebPushSubscriptionSchema.class {}
WebPushSubscriptionSchema.setClass(WebPushSubscription);
