import type { MikroORM } from "@mikro-orm/postgresql";
import type { Logger } from "pino";
import type { Bus, SessionRevocations } from "@tt/kit";
import type { UserAreaConfigs, UserConfig } from "./config.ts";
import type { DevOutbox, Providers } from "./providers/index.ts";
import type { TokenIssuer } from "./tokens.ts";

/** What the route factories share: built once in `create()`, read by every handler. */
export interface UserServiceContext {
  tokens: TokenIssuer;
  revocations: SessionRevocations;
  bus: Bus;
  logger: Logger;
  /** The service's validated configuration (config.ts). */
  config: UserConfig;
  /** Each area's validated configuration, parsed with the service's at start (config.ts). */
  areas: UserAreaConfigs;
  /** The outside providers (e-mail, SMS, phone lookup, OAuth and music-provider clients), real or dev. */
  providers: Providers;
  /** Where the development e-mail and SMS senders put what they "sent" (readable by admins). */
  devOutbox: DevOutbox;
  /** For background work outside a call (timers, relays); handlers use the call's fork from kEm. */
  orm: MikroORM;
  /** Aborted when the service stops: background work ends with it. */
  signal: AbortSignal;
}
