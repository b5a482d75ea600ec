import type { Logger } from "pino";
import type { Bus, SessionRevocations } from "@tt/kit";
import type { TokenIssuer } from "./tokens.ts";

/** What the route factories share: built once in `create()`, read by every handler. */
export interface UserServiceContext {
  tokens: TokenIssuer;
  revocations: SessionRevocations;
  bus: Bus;
  logger: Logger;
}
