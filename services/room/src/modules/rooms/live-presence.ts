// The live stage's answers to the room service's live questions (issue 14): who is in a room, its listener
// counts, its played time, from the social service's PresenceService. When the social service cannot be reached
// (not deployed, not configured in this process, down, slow) every question answers `undefined` and the caller
// falls back to the room service's own data (joins in the last hour, live time); the fallback is logged, at most
// once a minute, so a missing social service is visible without flooding the log.
import type { Client } from "@connectrpc/connect";
import { ConfigError, type ServiceClients } from "@tt/kit";
import {
  PresenceService,
  type ListRoomListenersResponse,
  type RoomListenerCount,
  type RoomPresence,
} from "@tt/proto/tt/social/v1/presence_service_pb";
import type { Logger } from "pino";

/** Deadline of a presence call: the room service's own answer is better than a slow one. */
const PRESENCE_TIMEOUT_MS = 2_000;
const LOG_EVERY_MS = 60_000;

export interface LivePresence {
  /** Whether a social service is configured at all (in this process or at SOCIAL_SERVICE_URL). */
  readonly configured: boolean;
  room(roomUuid: string, signal?: AbortSignal): Promise<RoomPresence | undefined>;
  listeners(
    roomUuid: string,
    limit: number,
    offset: number,
    signal?: AbortSignal,
  ): Promise<ListRoomListenersResponse | undefined>;
  counts(roomUuids: string[], signal?: AbortSignal): Promise<Map<string, RoomListenerCount> | undefined>;
  playedSeconds(signal?: AbortSignal): Promise<bigint | undefined>;
}

export function createLivePresence(clients: ServiceClients, logger: Logger): LivePresence {
  let client: Client<typeof PresenceService> | undefined;
  try {
    client = clients.get(PresenceService, { timeoutMs: PRESENCE_TIMEOUT_MS });
  } catch (err) {
    // Distributed processes start in the catalogue's order: the room service may start without the social
    // service's URL. It then answers from its own data.
    if (!(err instanceof ConfigError)) throw err;
    logger.warn({ err: err.message }, "no social service: live questions are answered from the room service's data");
  }
  let lastLog = 0;
  async function ask<T>(what: string, call: (c: Client<typeof PresenceService>) => Promise<T>): Promise<T | undefined> {
    if (!client) return undefined;
    try {
      return await call(client);
    } catch (err) {
      if (Date.now() - lastLog > LOG_EVERY_MS) {
        lastLog = Date.now();
        logger.warn({ err, what }, "social service unreachable: answering from the room service's data");
      }
      return undefined;
    }
  }
  return {
    configured: client !== undefined,
    room: (roomUuid, signal) =>
      ask("room presence", async (c) => (await c.getRoomPresence({ roomUuid }, { signal })).presence),
    listeners: (roomUuid, limit, offset, signal) =>
      ask("room listeners", (c) => c.listRoomListeners({ roomUuid, limit, offset }, { signal })),
    counts: (roomUuids, signal) =>
      roomUuids.length === 0
        ? Promise.resolve(new Map())
        : ask("listener counts", async (c) => {
            const { rooms } = await c.getRoomsPresence({ roomUuids }, { signal });
            return new Map(rooms.map((r) => [r.roomUuid, r]));
          }),
    playedSeconds: (signal) =>
      ask("played seconds", async (c) => (await c.getPlayedSeconds({}, { signal })).playedSeconds),
  };
}
