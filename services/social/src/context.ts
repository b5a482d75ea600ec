import type { MikroORM } from "@mikro-orm/postgresql";
import type { Bus } from "@tt/kit";
import type { Logger } from "pino";
import type { StageConfig } from "./config.ts";

/** What the routes get from create. */
export interface SocialContext {
  stageConfig: StageConfig;
  logger: Logger;
  orm: MikroORM;
  bus: Bus;
}
