import type { Client } from "@connectrpc/connect";
import type { MikroORM } from "@mikro-orm/postgresql";
import type { RoomService } from "@tt/proto/tt/room/v1/room_service_pb";
import type { Logger } from "pino";
import type { Bus } from "@tt/kit";
import type { PlaylistAreaConfigs } from "./config.ts";
import type { UploadLookup } from "./modules/catalogue/upload-lookup.ts";
import type { MusicServices } from "./modules/song-data/music-services.ts";

/**
 * What the route factories share: built once in `create()`, read by every handler. Other areas add their own
 * fields (providers, import queue, …) here.
 */
export interface PlaylistServiceContext {
  logger: Logger;
  /** Each area's validated configuration (config.ts). */
  config: PlaylistAreaConfigs;
  bus: Bus;
  /** For background work outside a call; handlers use the call's fork (callEm). */
  orm: MikroORM;
  /** Aborted when the service stops. */
  signal: AbortSignal;
  /** The outside music providers and the user's provider tokens (search, song data, imports, exports). */
  music: MusicServices;
  /**
   * The room service (who may see a room: RoomService.AdmitViewer), made on first use so a host without it starts;
   * throws a ConfigError when it is neither served here nor configured (ROOM_SERVICE_URL).
   */
  rooms: () => Client<typeof RoomService>;
  /**
   * Asks the upload service for a VERIFIED song the catalogue has not had the event of yet (issue 23); absent
   * where no upload service is configured (some tests).
   */
  uploads?: UploadLookup;
}
