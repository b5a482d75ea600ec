import { OutboxMessageSchema, ProcessedEventSchema, ThrottleWindowSchema } from "@tt/kit";
import { roomEntities } from "./modules/rooms/entities.ts";
import { peopleEntities } from "./modules/people/entities.ts";

/** Every entity of the room service, listed explicitly (no folder discovery); each area keeps its own list. */
export const entities = [
  // Events other services need leave through the transactional outbox (kit).
  OutboxMessageSchema,
  // Events this service consumes are marked processed in the same transaction as their effect (kit).
  ProcessedEventSchema,
  // Guest password guesses and friend invitations are counted per room, caller and address (kit throttle).
  ThrottleWindowSchema,
  ...roomEntities,
  ...peopleEntities,
];
