// The room service's configuration, validated once at start: each area declares its variables (a zod schema and
// a load<Area>Config) and loadRoomServiceConfig reads them all together, so a bad deployment fails naming every
// bad variable of every area. Areas added later (the people part) add one line to AREA_LOADERS.
import { z } from "zod";
import { parseEnv, parseEnvParts, unsetIfEmpty } from "@tt/kit";
import { loadLimitsConfig } from "./limits-config.ts";
import { loadPosterConfig } from "./modules/rooms/poster.ts";
import { loadRoomChatConfig } from "./providers/room-chat.ts";
import { loadPeopleConfig } from "./people-config.ts";

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

export const roomsConfigSchema = z.object({
  /**
   * all: answers requests and delivers the queued notifications (a DJ's fans, every device: the work queue
   * ROOM_NOTIFY_JOBS); api: only answers; notify: delivers (the chart's worker Deployment room-notify, which no
   * Service routes to, so a 100,000-fan delivery never shares the cores that answer requests).
   */
  ROOM_ROLE: z.preprocess(unsetIfEmpty, z.enum(["all", "api", "notify"]).default("all")),
  /** Largest page of the room lists (limit, take). */
  ROOM_LIST_MAX_LIMIT: positiveInt(100).pipe(z.number().max(1000)),
  /** How many recently visited rooms are kept per user. */
  ROOM_RECENT_VISITS_KEPT: positiveInt(50).pipe(z.number().max(500)),
  /**
   * Keys the lookup hash of guest passwords (HMAC-SHA256), so POST /rooms/list finds the matching rooms without
   * trying every argon2 hash. Set a secret value in production; changing it makes existing passwords unfindable
   * by POST /rooms/list (they still work at join) until set again.
   */
  ROOM_GUEST_PASSWORD_PEPPER: z.preprocess(
    unsetIfEmpty,
    z.string().min(16).default("turntable-development-guest-password-pepper"),
  ),
});

export type RoomsConfig = z.output<typeof roomsConfigSchema>;

export function loadRoomsConfig(env: Record<string, string | undefined>): RoomsConfig {
  return parseEnv(roomsConfigSchema, env);
}

/** Every area's loader; the keys are the areas' names in the service context's `areas`. */
const AREA_LOADERS = {
  rooms: loadRoomsConfig,
  poster: loadPosterConfig,
  chat: loadRoomChatConfig,
  people: loadPeopleConfig,
  limits: loadLimitsConfig,
};

export type RoomAreaConfigs = { [K in keyof typeof AREA_LOADERS]: ReturnType<(typeof AREA_LOADERS)[K]> };

/** The whole configuration of the service; a ConfigError names every bad variable of every area. */
export function loadRoomServiceConfig(env: Record<string, string | undefined>): RoomAreaConfigs {
  return parseEnvParts(AREA_LOADERS, env);
}
