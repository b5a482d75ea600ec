import { defineEntity, p } from "@mikro-orm/core";

/** How far a person read their direct conversation with another. */
export const ChatReadRowSchema = defineEntity({
  name: "ChatReadRow",
  tableName: "chat_read",
  properties: {
    userUuid: p.uuid().primary(),
    peerUuid: p.uuid().primary(),
    lastReadId: p.bigint("number").default(0),
  },
});
export class ChatReadRow extends ChatReadRowSchema.class {}
ChatReadRowSchema.setClass(ChatReadRow);
