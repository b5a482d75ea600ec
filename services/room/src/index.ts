import { createObjectStore, type ServiceDefinition } from "@tt/kit";
import { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import { createRoomChat } from "./providers/room-chat.ts";
import { loadRoomServiceConfig } from "./config.ts";
import type { RoomServiceContext } from "./context.ts";
import { entities } from "./entities.ts";
import { migrationsList } from "./migrations/index.ts";
import { Deliverer } from "./modules/notifications/deliver.ts";
import { consumeSongStarted } from "./modules/notifications/dj-fans.ts";
import { ensureNotifyStream, startNotificationWorker } from "./modules/notifications/jobs.ts";
import { accountsFrom } from "./modules/rooms/accounts.ts";
import { Directory } from "./modules/rooms/directory.ts";
import { createLivePresence } from "./modules/rooms/live-presence.ts";
import { registerRoomRoutes, ROOM_SERVICES } from "./routes/index.ts";
import { createPeopleServices } from "./people-context.ts";

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
    const profiles = deps.clients.get(ProfileService);
    const chat = createRoomChat(areas.chat);
    deps.logger.info({ chat: chat.mode }, `room chat: ${chat.mode}`);
    const accounts = accountsFrom(profiles);
    const svc: RoomServiceContext = {
      areas,
      logger: deps.logger,
      bus: deps.bus,
      orm: deps.orm,
      signal: lifetime.signal,
      profiles,
      accounts,
      posters: createObjectStore(areas.poster),
      chat: chat.chat,
      startedAt: new Date(),
      people: await createPeopleServices(deps, areas.people),
      presence: createLivePresence(deps.clients, deps.logger),
      directory: await Directory.start({
        orm: deps.orm,
        bus: deps.bus,
        mediaBaseUrl: areas.poster.MEDIA_BASE_URL,
        logger: deps.logger,
      }),
    };
    // Notifications to many (a DJ's fans, every device) are queued and delivered by this worker (issue 29), in
    // every process but those that only answer requests (ROOM_ROLE=api, beside the chart's room-notify worker).
    const notifyWorker =
      areas.rooms.ROOM_ROLE !== "api"
        ? await startNotificationWorker(svc, new Deliverer(svc.people, deps.logger))
        : (await ensureNotifyStream(svc.bus), undefined);
    // The live stage's SongStarted: the DJ's fans are notified (issue 14).
    const songStarted = await consumeSongStarted(svc);
    let closing: Promise<void> | undefined;
    return {
      routes(router) {
        registerRoomRoutes(router, svc);
      },
      // Once, however often it is called (a test stops one replica and the harness closes it again).
      close() {
        closing ??= (async () => {
          lifetime.abort();
          await songStarted.unsubscribe();
          await notifyWorker?.close();
          await svc.directory.close();
          await svc.people.close();
        })();
        return closing;
      },
    };
  },
};

export { ROOM_SERVICES };
