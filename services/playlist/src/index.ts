import type { ServiceDefinition } from "@tt/kit";
import { loadPlaylistConfig } from "./config.ts";
import type { PlaylistServiceContext } from "./context.ts";
import { entities } from "./entities.ts";
import { migrationsList } from "./migrations/index.ts";
import { startUploadConsumer } from "./modules/catalogue/upload-events.ts";
import { PLAYLIST_SERVICES, registerPlaylistRoutes } from "./routes/index.ts";

export const playlistServiceDefinition: ServiceDefinition = {
  name: "playlist",
  services: [...PLAYLIST_SERVICES],
  entities,
  migrations: migrationsList,
  async create(deps) {
    // Every area's variables are read here, once: a bad deployment fails at start naming each bad variable.
    const config = loadPlaylistConfig(deps.env);
    const lifetime = new AbortController();
    deps.signal.addEventListener("abort", () => lifetime.abort(), { once: true });
    const svc: PlaylistServiceContext = {
      logger: deps.logger,
      config,
      bus: deps.bus,
      orm: deps.orm,
      signal: lifetime.signal,
    };
    // The upload service's songs enter the catalogue through its events (exactly once per event).
    const uploads = await startUploadConsumer(svc);
    return {
      routes(router) {
        registerPlaylistRoutes(router, svc);
      },
      async close() {
        lifetime.abort();
        await uploads.unsubscribe();
      },
    };
  },
};

export { PLAYLIST_SERVICES };
export * as catalogue from "./modules/catalogue/catalogue.ts";
