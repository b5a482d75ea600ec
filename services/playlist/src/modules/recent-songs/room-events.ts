// Which room a slug names, from the room service's events (proto/tt/room/v1/events.proto): a created room and a
// settings change (a new slug) map the slug to the room's uuid, so GET /rooms/{slug}/recent-songs finds a
// renamed room's history under its new slug before the live stage posts there. The stage's POST carries the
// uuid too and writes the same mapping; the newest write for a slug wins (the event's time, or now for a POST).
import type { EntityManager } from "@mikro-orm/postgresql";
import { consumeEvents, deploymentDurable, type Subscription } from "@tt/kit";
import { RoomCreatedSchema, RoomSettingsChangedSchema } from "@tt/proto/tt/room/v1/events_pb";
import type { PlaylistServiceContext } from "../../context.ts";
import { db } from "../../db.ts";

/** Maps `slug` to `roomUuid` unless a newer mapping for the slug is already stored. */
export async function mapSlug(em: EntityManager, slug: string, roomUuid: string, at: Date): Promise<void> {
  if (slug === "" || slug.length > 100 || !/^[0-9a-f-]{36}$/i.test(roomUuid)) return;
  await db(em)
    .insertInto("room_slug")
    .values({ slug, room_uuid: roomUuid.toLowerCase(), updated_at: at })
    .onConflict((oc) =>
      oc
        .column("slug")
        .doUpdateSet((eb) => ({ room_uuid: eb.ref("excluded.room_uuid"), updated_at: eb.ref("excluded.updated_at") }))
        .whereRef("room_slug.updated_at", "<=", "excluded.updated_at"),
    )
    .execute();
}

/** Subscribes to the room events that name a slug; `unsubscribe` ends both. */
export async function startRoomConsumer(svc: PlaylistServiceContext): Promise<{ unsubscribe(): Promise<void> }> {
  const durable = deploymentDurable(svc.orm, "playlist-recent-songs-rooms", {
    configured: svc.config.recentSongs.RECENT_SONGS_ROOM_DURABLE,
  });
  const subs: Subscription[] = [
    await consumeEvents(
      svc.bus,
      RoomCreatedSchema,
      (event, ctx) => mapSlug(ctx.em, event.slug, event.roomUuid, ctx.occurredAt ?? new Date()),
      { durable: `${durable}-created`, orm: svc.orm, logger: svc.logger },
    ),
    await consumeEvents(
      svc.bus,
      RoomSettingsChangedSchema,
      (event, ctx) => mapSlug(ctx.em, event.slug, event.roomUuid, ctx.occurredAt ?? new Date()),
      { durable: `${durable}-settings`, orm: svc.orm, logger: svc.logger },
    ),
  ];
  return {
    async unsubscribe() {
      await Promise.all(subs.map((s) => s.unsubscribe()));
    },
  };
}
