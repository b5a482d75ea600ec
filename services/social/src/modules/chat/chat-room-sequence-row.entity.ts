import { defineEntity, p } from "@mikro-orm/core";

/**
 * A room's chat sequence (issue 28): every change of the room's chat (a message created, edited, its reactions
 * changed, deleted, the room cleared) adds one in the transaction that stores the change, and its live event carries
 * the number. One row per room, taken with an upsert: the row's lock orders concurrent changes from any instance,
 * and a change rolled back gives its number back, so the numbers have no hole and follow the commits.
 */
export const ChatRoomSequenceRowSchema = defineEntity({
  name: "ChatRoomSequenceRow",
  tableName: "chat_room_sequence",
  properties: {
    roomUuid: p.uuid().primary(),
    sequence: p.bigint("bigint").default(0),
  },
});
export class ChatRoomSequenceRow extends ChatRoomSequenceRowSchema.class {}
ChatRoomSequenceRowSchema.setClass(ChatRoomSequenceRow);
