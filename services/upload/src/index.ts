// The upload service: uploads of songs, their verification and packaging into encrypted HLS, the keys, and
// the demo catalogue of the embedded default (services/upload/README.md).
import { createObjectStore, type ServiceDefinition } from "@tt/kit";
import { MediaService } from "@tt/proto/tt/upload/v1/media_service_pb";
import { SongService } from "@tt/proto/tt/upload/v1/song_service_pb";
import { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import { PresenceService } from "@tt/proto/tt/social/v1/presence_service_pb";
import { Code, ConnectError, type Client } from "@connectrpc/connect";
import { loadUploadConfig } from "./config.ts";
import { entities } from "./entities.ts";
import { migrationsList } from "./migrations/index.ts";
import { seedDemoSongs } from "./modules/demo/demo-songs.ts";
import { loadSecrets } from "./modules/songs/secrets.ts";
import { defaultFfmpegPath } from "./packaging/ffmpeg.ts";
import { startPackagingWorker, type PackagingWorker } from "./packaging/worker.ts";
import type { UploadContext } from "./routes/context.ts";
import { registerUploadRoutes } from "./routes/index.ts";

export { loadUploadConfig } from "./config.ts";
export type { UploadConfig } from "./config.ts";

/** The stage's listener pages asked for at once (its most). */
const LISTENERS_PAGE = 500;

export const uploadServiceDefinition: ServiceDefinition = {
  name: "upload",
  services: [SongService, MediaService],
  entities,
  migrations: migrationsList,
  async create(deps) {
    const config = loadUploadConfig(deps.env);
    const store = createObjectStore(config);
    const ffmpeg = config.FFMPEG_PATH ?? defaultFfmpegPath();
    const secrets = await loadSecrets(deps.orm, config);
    const profiles = deps.clients.get(ProfileService);
    // Made on first use: the upload service starts (and serves owners and public songs) without the social one.
    let presence: Client<typeof PresenceService> | undefined;
    const svc: UploadContext = {
      config,
      orm: deps.orm,
      store,
      secrets,
      revocations: deps.revocations,
      logger: deps.logger,
      async canUpload(userId, signal) {
        try {
          const { user } = await profiles.getServiceUserProfile({ id: userId }, { signal });
          return user?.capabilities.includes("uploadMusic") ?? false;
        } catch (err) {
          if (ConnectError.from(err).code === Code.NotFound) return false;
          throw err;
        }
      },
      async isRoomListener(room, listener, song, signal) {
        try {
          presence ??= deps.clients.get(PresenceService);
          const play = (await presence.getRoomPresence({ roomUuid: room }, { signal })).presence?.play;
          if (!play || play.uploadSongId !== String(song.id) || play.djUuid !== song.owner) return false;
          for (let offset = 0; ; offset += LISTENERS_PAGE) {
            const page = await presence.listRoomListeners(
              { roomUuid: room, limit: LISTENERS_PAGE, offset },
              { signal },
            );
            if (page.listeners.some((l) => l.userUuid === listener)) return true;
            if (page.listeners.length < LISTENERS_PAGE) return false;
          }
        } catch (err) {
          deps.logger.warn({ err, room, song: song.uuid }, "the stage could not say who listens in the room");
          return false;
        }
      },
    };
    let worker: PackagingWorker | undefined;
    if (config.UPLOAD_ROLE !== "api") {
      worker = await startPackagingWorker({
        bus: deps.bus,
        orm: deps.orm,
        store,
        ffmpeg,
        logger: deps.logger,
        shards: config.UPLOAD_PACKAGING_SHARDS,
        concurrency: config.UPLOAD_WORKER_CONCURRENCY,
        timeoutMs: config.UPLOAD_PACKAGING_TIMEOUT_MS,
        jobAckWaitMs: config.UPLOAD_JOB_ACK_WAIT_MS,
      });
    }
    // Seeding runs beside the start (synthesising takes a few seconds) and stops with the instance.
    const seeding =
      config.UPLOAD_DEMO_SONGS && config.UPLOAD_ROLE !== "worker"
        ? seedDemoSongs({
            orm: deps.orm,
            store,
            ffmpeg,
            shards: config.UPLOAD_PACKAGING_SHARDS,
            logger: deps.logger,
            signal: deps.signal,
          }).catch((err: unknown) => {
            if (!deps.signal.aborted) deps.logger.error({ err }, "seeding the demo songs failed");
          })
        : Promise.resolve();
    return {
      routes: (router) => registerUploadRoutes(router, svc),
      async close() {
        await seeding;
        await worker?.close();
      },
    };
  },
};
