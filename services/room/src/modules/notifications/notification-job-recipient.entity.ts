import { defineEntity, p } from "@mikro-orm/core";

/**
 * A recipient a queued notification job (issue 29) has delivered to: written in the transaction of their inbox row,
 * once their pushes went out, so a page redelivered after a worker stopped skips them. Kept a week (far beyond
 * any redelivery), then pruned.
 */
export const NotificationJobRecipientSchema = defineEntity({
  name: "NotificationJobRecipient",
  tableName: "notification_job_recipient",
  properties: {
    jobId: p.uuid().primary(),
    userId: p.uuid().primary(),
    sentAt: p.datetime().index(),
  },
});

export class NotificationJobRecipient extends NotificationJobRecipientSchema.class {}
NotificationJobRecipientSchema.setClass(NotificationJobRecipient);
