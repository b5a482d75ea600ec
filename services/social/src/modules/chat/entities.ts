// The chat's tables (issue 14; specification 002 §3–§5). A message's content (text aside) is kept as the JSON of
// what the client shows, so a new kind of content needs no migration; what the server filters or checks on has a
// column. Rows are read and written with SQL in chat-store.ts (the history query needs window clauses the ORM
// cannot express); the entities describe the schema, so the migrations test holds the migration to it.
import { defineEntity, p } from "@mikro-orm/core";

/** What a message shows besides its text (ChatMessage fields of chat.proto, as proto3 JSON). */
export interface ChatContent {
  userName?: string;
  avatarId?: string;
  color?: string;
  badges?: string[];
  musicInfo?: unknown;
  gif?: unknown;
  imageBase64?: string;
  imageUrls?: string[];
  media?: string;
  songs?: unknown[];
  playlist?: unknown;
  consumable?: unknown;
  replies?: unknown[];
}

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

export const chatEntities = [
  ChatMessageRowSchema,
  ChatRoomSequenceRowSchema,
  ChatReactionRowSchema,
  ChatReportRowSchema,
  ChatReadRowSchema,
  ChatBlockRowSchema,
];
