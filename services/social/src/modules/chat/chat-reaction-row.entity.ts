import { defineEntity, p } from "@mikro-orm/core";

/** One person's reaction with one emoji on one message. */
export const ChatReactionRowSchema = defineEntity({
  name: "ChatReactionRow",
  tableName: "chat_reaction",
  properties: {
    messageId: p.bigint("number").primary(),
    emoji: p.string().length(64).primary(),
    userUuid: p.uuid().primary(),
    name: p.string().length(100).default(""),
    createdAt: p.datetime(),
  },
});
export class ChatReactionRow extends ChatReactionRowSchema.class {}
ChatReactionRowSchema.setClass(ChatReactionRow);
