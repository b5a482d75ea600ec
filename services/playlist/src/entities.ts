import { OutboxMessageSchema, ProcessedEventSchema } from "@tt/kit";
import { catalogueEntities } from "./modules/catalogue/entities.ts";
import { crateEntities } from "./modules/crates/entities.ts";
import { importEntities } from "./modules/imports/entities.ts";
import { recentSongEntities } from "./modules/recent-songs/entities.ts";

/** Every entity of the playlist service, listed explicitly; each area keeps its own list (one line each). */
export const entities = [
  // Crate events leave through the transactional outbox; upload (and room) events are consumed exactly once.
  OutboxMessageSchema,
  ProcessedEventSchema,
  ...catalogueEntities,
  ...crateEntities,
  ...importEntities,
  ...recentSongEntities,
];
