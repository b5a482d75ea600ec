// The chat's tables (issue 14; specification 002 §3–§5). A message's content (text aside) is kept as the JSON of
// what the client shows, so a new kind of content needs no migration; what the server filters or checks on has a
// column. Rows are read and written in chat-store.ts with typed queries on these entities (db.ts: a renamed column
// fails the type check there), as the history's subqueries and the sequence's upsert need; the migrations test holds
// the migration to the entities. One entity a file (*.entity.ts); here what a message shows besides its text, and the
// list of the chat's entities.
import { ChatBlockRowSchema } from "./chat-block-row.entity.ts";
import { ChatMessageRowSchema } from "./chat-message-row.entity.ts";
import { ChatReactionRowSchema } from "./chat-reaction-row.entity.ts";
import { ChatReadRowSchema } from "./chat-read-row.entity.ts";
import { ChatReportRowSchema } from "./chat-report-row.entity.ts";
import { ChatRoomSequenceRowSchema } from "./chat-room-sequence-row.entity.ts";

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

export const chatEntities = [
  ChatMessageRowSchema,
  ChatRoomSequenceRowSchema,
  ChatReactionRowSchema,
  ChatReportRowSchema,
  ChatReadRowSchema,
  ChatBlockRowSchema,
];
