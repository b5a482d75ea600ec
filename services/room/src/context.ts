import type { Client } from "@connectrpc/connect";
import type { MikroORM } from "@mikro-orm/postgresql";
import type { Logger } from "pino";
import type { Bus } from "@tt/kit";
import type { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import type { RoomAreaConfigs } from "./config.ts";

/** What the route factories share: built once in `create()`, read by every handler. */
export interface RoomServiceContext {
  /** Each area's validated configuration (config.ts). */
  areas: RoomAreaConfigs;
  logger: Logger;
  bus: Bus;
  /** For background work outside a call; handlers use the call's fork (callEm). */
  orm: MikroORM;
  /** Aborted when the service stops: background work ends with it. */
  signal: AbortSignal;
  /** The user service's profiles (GetServiceUserProfile: role, capabilities), called with the room service's token. */
  profiles: Client<typeof ProfileService>;
}
