import { defineEntity, p } from "@mikro-orm/core";
import type { ChatContent } from "./entities.ts";

/** One message, of a room (room_uuid) or between two people (pair_key, receiver_uuid). */
export const ChatMessageRowSchema = defineEntity({
  name: "ChatMessageRow",
  tableName: "chat_message",
  indexes: [
    { properties: ["roomUuid", "id"], name: "chat_message_room_uuid_id_index" },
    { properties: ["pairKey", "id"], name: "chat_message_pair_key_id_index" },
  ],
  properties: {
    // The order messages were stored in; the client's `id`.
    id: p.bigint("number").primary().autoincrement(),
    // Chosen by the sender's client: a retried send finds its message.
    uuid: p.uuid().unique(),
    roomUuid: p.uuid().nullable(),
    // Empty for the room's own messages (type "room").
    senderUuid: p.uuid().nullable(),
    receiverUuid: p.uuid().nullable(),
    // A direct message's two people, lower uuid first ("a:b").
    pairKey: p.string().length(73).nullable(),
    // "user" or "room" (ChatMessageType).
    type: p.string().length(8),
    text: p.text().default(""),
    // Plain text only (no structure, image, song card, playlist or consumable): the only editable kind (§5).
    plain: p.boolean().default(true),
    content: p.json<ChatContent>().default("{}"),
    createdAt: p.datetime(),
    editedAt: p.datetime().nullable(),
  },
});
export class ChatMessageRow extends ChatMessageRowSchema.class {}
ChatMessageRowSchema.setClass(ChatMessageRow);
