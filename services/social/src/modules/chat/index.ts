// The chat area of the social service (issue 14): what ChatService's routes (routes/chat.ts) work with, its consumers,
// its tables.
import type { ServiceDeps } from "@tt/kit";
import { loadChatConfig, loadChatLimits } from "../../config.ts";
import { startChatConsumers } from "./consumers.ts";
import { createChatPublisher } from "./publish.ts";
import { createChatRelations, type StageRoomLookup } from "./relations.ts";
import type { ChatRouteContext, RoomAdmission } from "../../routes/chat.ts";
import { deploymentDurable } from "@tt/kit";

export { chatEntities } from "./entities.ts";
export { chatMigrations } from "./migrations.ts";

export interface ChatOptions {
  /** Durable consumer prefix; default one per deployment (a hash of the database name). */
  durable?: string;
  /** The edit window, 002 §9's 20 s unless a test shortens it. */
  editWindowMs?: number;
  /** Who may enter a room's chat (the stage's admission); see ChatRouteContext.admit. */
  admit?: RoomAdmission;
  /** How long a room from the room service is used before it is asked again (SOCIAL_ROOM_CACHE_MS). */
  roomCacheMs?: number;
  /** A public room as the stage holds it, while the room service cannot be reached (relations.ts). */
  fromStage?: StageRoomLookup;
}

/**
 * Starts the chat: its clients of the room, user and playlist services, its consumers; `close` stops them. Reads
 * SOCIAL_WEB_ORIGINS and the chat limits (config.ts) from `deps.env`.
 */
export async function startChat(
  deps: Pick<ServiceDeps, "orm" | "bus" | "logger" | "clients" | "env">,
  opts: ChatOptions = {},
) {
  const { SOCIAL_WEB_ORIGINS: webOrigins } = loadChatConfig(deps.env);
  const logger = deps.logger.child({ area: "chat" });
  const relations = createChatRelations(deps.clients, logger, opts.roomCacheMs, opts.fromStage);
  const publisher = createChatPublisher(deps.bus, logger);
  const durable = deploymentDurable(deps.orm, "social-chat", { configured: opts.durable });
  const consumers = await startChatConsumers({ bus: deps.bus, orm: deps.orm, logger, relations, publisher, durable });
  const context: ChatRouteContext = {
    relations,
    publisher,
    logger,
    editWindowMs: opts.editWindowMs,
    admit: opts.admit,
    webOrigins,
    limits: loadChatLimits(deps.env),
  };
  return { context, close: () => consumers.unsubscribe() };
}
