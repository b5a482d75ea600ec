// A room's played time (issue 14: /rooms/room-played-time/{id} and /info-admin/played-seconds answered from the
// stage): the social service consumes its own SongPlayed and adds each play's seconds to the room's sum, once per
// play id (a play announced twice under two event ids counts once: the play id is marked in processed_event).
import type { EntityManager, MikroORM } from "@mikro-orm/postgresql";
import { type Bus, consumeEvents, deploymentDurable, isUuid, markProcessed, sql, type Subscription } from "@tt/kit";
import { SongPlayedSchema, type SongPlayed } from "@tt/proto/tt/social/v1/events_pb";
import type { Logger } from "pino";
import { db } from "../../db.ts";

/** One durable consumer per deployment (a hash of its database name): replicas share it, test runs do not. */
export function playedTimeDurable(orm: MikroORM): string {
  return deploymentDurable(orm, "social-played-time");
}

/** Adds one ended play to its room's played time; false when the play was already counted or has no room. */
export async function addPlayedSong(em: EntityManager, consumer: string, event: SongPlayed): Promise<boolean> {
  if (!isUuid(event.roomUuid)) return false;
  const seconds = Number.isFinite(event.playedSeconds) && event.playedSeconds > 0 ? event.playedSeconds : 0;
  if (event.playId) {
    if (!(await markProcessed(em, `${consumer}:play`, event.playId.slice(0, 200)))) return false;
  }
  await db(em)
    .insertInto("room_played_time")
    .values({
      room_uuid: event.roomUuid.toLowerCase(),
      played_seconds: seconds,
      plays: 1,
      updated_at: sql<Date>`now()`,
    })
    .onConflict((oc) =>
      oc.column("room_uuid").doUpdateSet((eb) => ({
        played_seconds: eb("room_played_time.played_seconds", "+", eb.ref("excluded.played_seconds")),
        plays: eb("room_played_time.plays", "+", 1),
        updated_at: eb.ref("excluded.updated_at"),
      })),
    )
    .execute();
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
  const row = await db(em)
    .selectFrom("room_played_time")
    .select("played_seconds")
    .where("room_uuid", "=", roomUuid)
    .executeTakeFirst();
  return Number(row?.played_seconds ?? 0);
}

/** Every room's ended plays' seconds. */
export async function totalEndedSeconds(em: EntityManager): Promise<number> {
  const row = await db(em)
    .selectFrom("room_played_time")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>("played_seconds"), sql.lit(0)).as("s"))
    .executeTakeFirst();
  return Number(row?.s ?? 0);
}
