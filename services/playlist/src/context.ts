import type { MikroORM } from "@mikro-orm/postgresql";
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
   * Asks the upload service for a VERIFIED song the catalogue has not had the event of yet (issue 23); absent
   * where no upload service is configured (some tests).
   */
  uploads?: UploadLookup;
}
