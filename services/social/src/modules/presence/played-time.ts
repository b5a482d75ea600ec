// A room's played time (issue 14: /rooms/room-played-time/{id} and /info-admin/played-seconds answered from the
// stage): the social service consumes its own SongPlayed and adds each play's seconds to the room's sum, once per
// play id (a play announced twice under two event ids counts once: the play id is marked in processed_event).
import { createHash } from "node:crypto";
import type { EntityManager, MikroORM } from "@mikro-orm/postgresql";
import { consumeEvents, isUuid, type Bus, type Subscription } from "@tt/kit";
import { SongPlayedSchema, type SongPlayed } from "@tt/proto/tt/social/v1/events_pb";
import type { Logger } from "pino";

/** One durable consumer per deployment (a hash of its database name): replicas share it, test runs do not. */
export function playedTimeDurable(orm: MikroORM): string {
  const scope = createHash("sha256")
    .update(String(orm.config.get("dbName")))
    .digest("hex")
    .slice(0, 12);
  return `social-played-time-${scope}`;
}

/** Adds one ended play to its room's played time; false when the play was already counted or has no room. */
export async function addPlayedSong(em: EntityManager, consumer: string, event: SongPlayed): Promise<boolean> {
  if (!isUuid(event.roomUuid)) return false;
  const seconds = Number.isFinite(event.playedSeconds) && event.playedSeconds > 0 ? event.playedSeconds : 0;
  if (event.playId) {
    const marked = await em.execute<{ consumer: string }[]>(
      `insert into "social"."processed_event" ("consumer", "event_id", "processed_at") values (?, ?, now())
       on conflict do nothing returning "consumer"`,
      [`${consumer}:play`, event.playId.slice(0, 200)],
    );
    if (marked.length === 0) return false;
  }
  await em.execute(
    `insert into "social"."room_played_time" as t ("room_uuid", "played_seconds", "plays", "updated_at")
     values (?, ?, 1, now())
     on conflict ("room_uuid") do update set "played_seconds" = t."played_seconds" + excluded."played_seconds",
       "plays" = t."plays" + 1, "updated_at" = excluded."updated_at"`,
    [event.roomUuid.toLowerCase(), seconds],
  );
  return true;
}

export function consumePlayedSongs(deps: { bus: Bus; orm: MikroORM; logger: Logger }): Promise<Subscription> {
  const durable = playedTimeDurable(deps.orm);
  return consumeEvents(
    deps.bus,
    SongPlayedSchema,
    (event, ctx) => addPlayedSong(ctx.em, durable, event).then(() => {}),
    {
      durable,
      orm: deps.orm,
      logger: deps.logger,
    },
  );
}

/** The room's ended plays' seconds (0 when none). */
export async function endedSecondsOf(em: EntityManager, roomUuid: string): Promise<number> {
  const rows = await em.execute<{ s: number | string }[]>(
    `select "played_seconds" as "s" from "social"."room_played_time" where "room_uuid" = ?`,
    [roomUuid],
  );
  return Number(rows[0]?.s ?? 0);
}

/** Every room's ended plays' seconds. */
export async function totalEndedSeconds(em: EntityManager): Promise<number> {
  const rows = await em.execute<{ s: number | string | null }[]>(
    `select coalesce(sum("played_seconds"), 0) as "s" from "social"."room_played_time"`,
  );
  return Number(rows[0]?.s ?? 0);
}
