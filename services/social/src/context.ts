import type { Client } from "@connectrpc/connect";
import type { MikroORM } from "@mikro-orm/postgresql";
import type { Bus } from "@tt/kit";
import type { CrateService } from "@tt/proto/tt/playlist/v1/crate_service_pb";
import type { Logger } from "pino";
import type { StageConfig } from "./config.ts";
import type { StageRuntime } from "./modules/stage/runtime.ts";

/** What the routes get from create. */
export interface SocialContext {
  stageConfig: StageConfig;
  /** The live stages of the rooms (key-value store, patches, join streams, drivers). */
  stage: StageRuntime;
  /** The playlist service's crates (likes star the song, grabs copy it). */
  crates: Client<typeof CrateService>;
  logger: Logger;
  orm: MikroORM;
  bus: Bus;
}
