// The resident DJ as its environment describes it (config.ts), for the all-in-one and for its own process.
import type { Logger } from "pino";
import type { ResidentDjConfig } from "./config.ts";
import { startResidentDj, type ResidentDj } from "./resident-dj.ts";

export function residentDjFromEnv(
  config: ResidentDjConfig,
  o: { baseUrl: string; logger: Logger; stateFile?: string },
): ResidentDj {
  const owner =
    config.RESIDENT_DJ_OWNER_EMAIL && config.RESIDENT_DJ_OWNER_PASSWORD
      ? { email: config.RESIDENT_DJ_OWNER_EMAIL, password: config.RESIDENT_DJ_OWNER_PASSWORD }
      : undefined;
  return startResidentDj({
    baseUrl: o.baseUrl,
    logger: o.logger,
    room: config.RESIDENT_DJ_ROOM,
    nickname: config.RESIDENT_DJ_NICKNAME,
    crate: config.RESIDENT_DJ_CRATE,
    owner,
    stateFile: config.RESIDENT_DJ_STATE_FILE ?? o.stateFile,
  });
}
