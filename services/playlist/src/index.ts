import type { Client } from "@connectrpc/connect";
import type { ServiceDefinition } from "@tt/kit";
import { RoomService } from "@tt/proto/tt/room/v1/room_service_pb";
import { loadPlaylistConfig } from "./config.ts";
import type { PlaylistServiceContext } from "./context.ts";
import { entities } from "./entities.ts";
import { migrationsList } from "./migrations/index.ts";
import { startUploadConsumer } from "./modules/catalogue/upload-events.ts";
import { createUploadLookup } from "./modules/catalogue/upload-lookup.ts";
import { startRoomConsumer } from "./modules/recent-songs/room-events.ts";
import { startStageConsumer } from "./modules/recent-songs/stage-events.ts";
import { startImportWorker } from "./modules/imports/imports.ts";
import { createMusicServices } from "./modules/song-data/music-services.ts";
import { createMusicProviders } from "./providers/index.ts";
import { PLAYLIST_SERVICES, registerPlaylistRoutes } from "./routes/index.ts";
import { deploymentDurable } from "@tt/kit";

export const playlistServiceDefinition: ServiceDefinition = {
  name: "playlist",
  services: [...PLAYLIST_SERVICES],
  entities,
  migrations: migrationsList,
  async create(deps) {
    // Every area's variables are read here, once: a bad deployment fails at start naming each bad variable.
    const config = loadPlaylistConfig(deps.env);
    const lifetime = new AbortController();
    let roomClient: Client<typeof RoomService> | undefined;
    deps.signal.addEventListener("abort", () => lifetime.abort(), { once: true });
    const svc: PlaylistServiceContext = {
      logger: deps.logger,
      config,
      bus: deps.bus,
      orm: deps.orm,
      signal: lifetime.signal,
      music: createMusicServices(createMusicProviders(config.providers), deps.clients, deps.logger),
      rooms: () => (roomClient ??= deps.clients.get(RoomService)),
      uploads: createUploadLookup(deps.clients, deps.logger),
    };
    deps.logger.info({ providers: svc.music.providers.summary }, "music providers");
    // The upload service's songs enter the catalogue through its events (exactly once per event).
    const uploads = await startUploadConsumer(svc);
    // Which room a slug names, from the room service's events (recent songs are kept by room uuid).
    const rooms = await startRoomConsumer(svc);
    // The live stage's finished songs join the room's recent songs (issue 14).
    const played = await startStageConsumer(svc);
    // Playlist imports: a durable job per imported crate (modules/imports/imports.ts).
    const imports = config.imports.IMPORT_WORKER
      ? await startImportWorker(svc, {
          pageSize: config.imports.IMPORT_PAGE_SIZE,
          maxAttempts: config.imports.IMPORT_MAX_ATTEMPTS,
          maxSongs: config.crates.CRATE_MAX_SONGS,
          durable: deploymentDurable(deps.orm, "playlist-imports", { configured: config.imports.IMPORT_DURABLE }),
          redeliveryDelayMs: config.imports.IMPORT_RETRY_MS,
        })
      : undefined;
    return {
      routes(router) {
        registerPlaylistRoutes(router, svc);
      },
      async close() {
        lifetime.abort();
        await imports?.unsubscribe();
        await uploads.unsubscribe();
        await rooms.unsubscribe();
        await played.unsubscribe();
      },
    };
  },
};

export { PLAYLIST_SERVICES };
export * as catalogue from "./modules/catalogue/catalogue.ts";
