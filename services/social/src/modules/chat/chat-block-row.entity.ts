import { defineEntity, p } from "@mikro-orm/core";

/** Who blocked whom, kept from the room service's UserBlocked / UserUnblocked events. */
export const ChatBlockRowSchema = defineEntity({
  name: "ChatBlockRow",
  tableName: "chat_block",
  properties: {
    userUuid: p.uuid().primary(),
    blockedUuid: p.uuid().primary().index(),
  },
});
export class ChatBlockRow extends ChatBlockRowSchema.class {}
ChatBlockRowSchema.setClass(ChatBlockRow);
