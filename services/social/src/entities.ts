import { OutboxMessageSchema, ProcessedEventSchema, ThrottleWindowSchema } from "@tt/kit";
import { chatEntities } from "./modules/chat/entities.ts";
import { RoomPlayedTimeSchema } from "./modules/presence/played-time.entity.ts";

/** Every entity of the social service, listed explicitly (each area adds its own). */
export const entities = [
  // The stage's events (SongStarted, SongPlayed) leave through the transactional outbox.
  OutboxMessageSchema,
  // The room service's events (settings, kicks, bans, deletions) are consumed once per event id.
  ProcessedEventSchema,
  // Messages, reactions and reports are counted per user (kit throttle).
  ThrottleWindowSchema,
  // Presence: the seconds of songs played per room (from SongPlayed).
  RoomPlayedTimeSchema,
  // Chat: messages, reactions, reports, read marks, blocks.
  ...chatEntities,
];
