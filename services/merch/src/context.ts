import type { Client } from "@connectrpc/connect";
import type { MikroORM } from "@mikro-orm/postgresql";
import type { Bus } from "@tt/kit";
import type { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import type { Logger } from "pino";
import type { MediaConfig, MerchConfig } from "./config.ts";
import type { Media } from "./modules/media/media.ts";

/** What the routes get from create: configuration, the object store, and the user service's client. */
export interface MerchContext {
  config: MerchConfig;
  mediaConfig: MediaConfig;
  media: Media;
  logger: Logger;
  orm: MikroORM;
  bus: Bus;
  profiles: Client<typeof ProfileService>;
}
