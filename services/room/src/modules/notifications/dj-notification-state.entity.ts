import { defineEntity, p } from "@mikro-orm/core";

/** When a DJ's fans were last notified that the DJ plays: the interval between two DJ-fan notifications. */
export const DjNotificationStateSchema = defineEntity({
  name: "DjNotificationState",
  tableName: "dj_notification_state",
  properties: {
    djId: p.uuid().primary(),
    notifiedAt: p.datetime(),
  },
});

export class DjNotificationState extends DjNotificationStateSchema.class {}
DjNotificationStateSchema.setClass(DjNotificationState);
