import { defineEntity, p } from "@mikro-orm/core";

/** One person's report of a message: they no longer see it; moderators see the reports. */
export const ChatReportRowSchema = defineEntity({
  name: "ChatReportRow",
  tableName: "chat_report",
  properties: {
    messageId: p.bigint("number").primary(),
    reporterUuid: p.uuid().primary().index(),
    reason: p.string().length(500).default(""),
    createdAt: p.datetime(),
  },
});
export class ChatReportRow extends ChatReportRowSchema.class {}
ChatReportRowSchema.setClass(ChatReportRow);
