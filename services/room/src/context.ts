import type { Client } from "@connectrpc/connect";
import type { MikroORM } from "@mikro-orm/postgresql";
import type { Logger } from "pino";
import type { Bus } from "@tt/kit";
import type { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import type { ObjectStore } from "@tt/kit";
import type { RoomAreaConfigs } from "./config.ts";
import type { Accounts } from "./modules/rooms/accounts.ts";
import type { Directory } from "./modules/rooms/directory.ts";
import type { LivePresence } from "./modules/rooms/live-presence.ts";
import type { RoomChat } from "./providers/room-chat.ts";
import type { PeopleServices } from "./people-context.ts";

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
  /** The user service's profiles, called with the room service's token. */
  profiles: Client<typeof ProfileService>;
  /** Users' account roles and capabilities, from the user service. */
  accounts: Accounts;
  /** Where posters are kept (the kit's object store, as profile images). */
  posters: ObjectStore;
  /** The rooms' chat groups (CometChat, or the development one). */
  chat: RoomChat;
  /** When this instance started (info-admin/room-service-status). */
  startedAt: Date;
  /** the people part: push providers, secrets, the user service's contact matching (people-context.ts). */
  people: PeopleServices;
  /** The live stage's answers (listeners, counts, played time); undefined answers fall back to our data. */
  presence: LivePresence;
  /** The room lists' snapshot of the rooms and their live summaries (GET /rooms/public and the other lists). */
  directory: Directory;
}
