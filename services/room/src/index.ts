import type { ServiceDefinition } from "@tt/kit";
import { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import { loadRoomServiceConfig } from "./config.ts";
import type { RoomServiceContext } from "./context.ts";
import { entities } from "./entities.ts";
import { migrationsList } from "./migrations/index.ts";
import { registerRoomRoutes, ROOM_SERVICES } from "./routes/index.ts";

export const roomServiceDefinition: ServiceDefinition = {
  name: "room",
  services: [...ROOM_SERVICES],
  entities,
  migrations: migrationsList,
  async create(deps) {
    // Every area's variables are read here, once: a bad deployment fails at start naming each bad variable.
    const areas = loadRoomServiceConfig(deps.env);
    const lifetime = new AbortController();
    deps.signal.addEventListener("abort", () => lifetime.abort(), { once: true });
    const svc: RoomServiceContext = {
      areas,
      logger: deps.logger,
      bus: deps.bus,
      orm: deps.orm,
      signal: lifetime.signal,
      profiles: deps.clients.get(ProfileService),
    };
    return {
      routes(router) {
        registerRoomRoutes(router, svc);
      },
      async close() {
        lifetime.abort();
      },
    };
  },
};

export { ROOM_SERVICES };
