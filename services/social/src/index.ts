import type { ServiceDefinition } from "@tt/kit";
import { CrateService } from "@tt/proto/tt/playlist/v1/crate_service_pb";
import { RoomService } from "@tt/proto/tt/room/v1/room_service_pb";
import { RoomUserRoleService } from "@tt/proto/tt/room/v1/room_user_role_service_pb";
import { loadSocialServiceConfig } from "./config.ts";
import type { SocialContext } from "./context.ts";
import { entities } from "./entities.ts";
import { migrationsList } from "./migrations/index.ts";
import { startChat } from "./modules/chat/index.ts";
import { consumePlayedSongs } from "./modules/presence/played-time.ts";
import { StageRuntime } from "./modules/stage/runtime.ts";
import { registerSocialRoutes, SOCIAL_SERVICES } from "./routes/index.ts";

/** The social service (issue 14): the rooms' live stages, chat and presence. */
export const socialServiceDefinition: ServiceDefinition = {
  name: "social",
  services: [...SOCIAL_SERVICES],
  entities,
  migrations: migrationsList,
  async create(deps) {
    const { stage: stageConfig } = loadSocialServiceConfig(deps.env);
    const crates = deps.clients.get(CrateService);
    const stage = await StageRuntime.start({
      bus: deps.bus,
      orm: deps.orm,
      logger: deps.logger,
      config: stageConfig,
      rooms: deps.clients.get(RoomService),
      roles: deps.clients.get(RoomUserRoleService),
      crates,
    });
    const svc: SocialContext = { stageConfig, stage, crates, logger: deps.logger, orm: deps.orm, bus: deps.bus };
    // Presence: each ended play adds its seconds to the room's played time (issue 14).
    const played = await consumePlayedSongs(deps);
    // Chat: ChatService and its consumers (merch consumables, conversation clears, blocks).
    // A private room's chat is read and written only by those admitted to its stage; banned and kicked users never.
    const chat = await startChat(deps, {
      roomCacheMs: stageConfig.SOCIAL_ROOM_CACHE_MS,
      fromStage: async (roomUuid) => {
        const room = await stage.roomFromStage(roomUuid);
        return room && room.settings.type !== "PRIVATE" ? { uuid: room.uuid, slug: room.settings.slug } : undefined;
      },
      admit: async (roomUuid, caller, signal) => {
        const room = await stage.resolveRoom(roomUuid, signal);
        if (room.settings.type === "PRIVATE" || caller.user) await stage.admit(room, caller, { signal });
      },
    });
    return {
      routes: (router) => {
        registerSocialRoutes(router, svc, chat.context);
      },
      close: async () => {
        await chat.close();
        await played.unsubscribe();
        await stage.close();
      },
    };
  },
};

export { SOCIAL_SERVICES };
export { StageRuntime };
