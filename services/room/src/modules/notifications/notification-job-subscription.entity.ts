import { defineEntity, p } from "@mikro-orm/core";

/**
 * A browser subscription a queued web push to every subscription (issue 29) has delivered to: written in the
 * transaction that removes the chunk's gone subscriptions, once its pushes went out, so a page redelivered after a
 * worker stopped skips it. The subscription's id, not a reference: a gone subscription is removed, its mark stays.
 * Kept a week, then pruned, as the recipients' marks.
 */
export const NotificationJobSubscriptionSchema = defineEntity({
  name: "NotificationJobSubscription",
  tableName: "notification_job_subscription",
  properties: {
    jobId: p.uuid().primary(),
    subscriptionId: p.uuid().primary(),
    sentAt: p.datetime().index(),
  },
});

export class NotificationJobSubscription extends NotificationJobSubscriptionSchema.class {}
NotificationJobSubscriptionSchema.setClass(NotificationJobSubscription);
