import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";

/** A notification in a user's inbox: what was sent to them, whatever reached their devices. */
export const NotificationSchema = defineEntity({
  name: "Notification",
  tableName: "notification",
  indexes: [{ properties: ["userId", "kind", "createdAt"] }],
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    userId: p.uuid(),
    /** dj-fans, room, custom, admin or user. */
    kind: p.string().length(16),
    title: p.string().length(200).default(""),
    body: p.text().default(""),
    roomId: p.uuid().nullable(),
    senderId: p.string().length(64).nullable(),
    data: p.json<Record<string, string>>().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    /** When the user saw it (MarkNotificationsRead, issue 26); null while unread. */
    readAt: p.datetime().nullable(),
  },
});

export class Notification extends NotificationSchema.class {}
NotificationSchema.setClass(Notification);
