import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";

/** What a development e-mail or SMS sender "sent"; a table so every replica and a restart see the same list. */
export const DevOutboxMessageSchema = defineEntity({
  name: "DevOutboxMessage",
  tableName: "dev_outbox_message",
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    channel: p.string().length(8),
    to: p.string().length(320).index(),
    subject: p.text().nullable(),
    body: p.text(),
    createdAt: p.datetime().index(),
  },
});

export class DevOutboxMessage extends DevOutboxMessageSchema.class {}
DevOutboxMessageSchema.setClass(DevOutboxMessage);
