// DJ-fan notifications (spec 001 §7): a DJ's fans hear that the DJ is playing, at most once per interval per DJ.
// Used by the DJ's own REST call (NotifyMyFans), the live stage's service call (NotifyDjStartedPlaying) and the
// live stage's SongStarted event (issue 14), so the three share one interval and one wording. Each claims the DJ's
// slot and queues one job (jobs.ts, issue 29); the fans are pushed to after the answer.
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import type { EntityManager, MikroORM } from "@mikro-orm/postgresql";
import { consumeEvents, deploymentDurable, markProcessed, sql, type Subscription } from "@tt/kit";
import { SongStartedSchema } from "@tt/proto/tt/social/v1/events_pb";
import type { RoomServiceContext } from "../../context.ts";
import { db } from "../../db.ts";
import { Room } from "../rooms/room.entity.ts";
import type { NotificationContent } from "./deliver.ts";
import { queueNotification } from "./jobs.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Claims the DJ's notification slot: true when the interval since the last one has passed (atomic). */
export async function claimDjSlot(em: EntityManager, djId: string, intervalSeconds: number): Promise<boolean> {
  const rows = await db(em)
    .insertInto("dj_notification_state")
    .values({ dj_id: djId, notified_at: sql<Date>`now()` })
    .onConflict((oc) =>
      oc
        .column("dj_id")
        .doUpdateSet((eb) => ({ notified_at: eb.ref("excluded.notified_at") }))
        .where("dj_notification_state.notified_at", "<=", sql<Date>`now() - make_interval(secs => ${intervalSeconds})`),
    )
    .returning("dj_id")
    .execute();
  return rows.length > 0;
}

/** The web shell's page of a room, which a push about it opens. */
export const roomPage = (roomId: string) => `/room/r/${roomId}`;

/**
 * Queues `content` to every fan of the DJ (issue 29), in `em`'s transaction: the workers deliver it after the
 * commit, to the fans' devices and browsers, a click opening the room's page.
 */
export function queueToFans(em: EntityManager, djId: string, content: NotificationContent): string {
  return queueNotification(em, { kind: "dj-fans", djId }, content, { web: true, url: roomPage(content.roomId ?? "") });
}

export interface DjStartedPlaying {
  djId: string;
  roomId: string;
  /** The DJ's display name and the room's name, for the text; empty: a generic wording. */
  djName: string;
  roomName: string;
}

/**
 * "<DJ> is playing" to the DJ's fans, unless they were notified within the interval (then `skipped`): the slot's
 * claim and the queued job are written in `em`'s transaction (the caller's), so they commit together.
 */
export async function notifyDjStartedPlaying(
  em: EntityManager,
  intervalSeconds: number,
  req: DjStartedPlaying,
): Promise<{ skipped: boolean }> {
  const djId = req.djId.toLowerCase();
  if (!(await claimDjSlot(em, djId, intervalSeconds))) return { skipped: true };
  const who = req.djName || "A DJ you follow";
  queueToFans(em, djId, {
    kind: "dj-fans",
    title: `${who} is playing`,
    body: req.roomName ? `Now playing in ${req.roomName}.` : "Come and listen.",
    // The names again on their own, so a page in another language words the notification itself.
    data: { djId, ...(req.djName ? { djName: req.djName } : {}), ...(req.roomName ? { roomName: req.roomName } : {}) },
    roomId: req.roomId.toLowerCase(),
    senderId: djId,
  });
  return { skipped: false };
}

/** A SongStarted older than this notifies nobody: the song is over (a consumer that was away catches up). */
const STALE_AFTER_MS = 10 * 60_000;

/**
 * The DJ's nickname from the user service's public profiles (the batch call: a few reads, where the whole account a
 * service may read took eleven, on the DJ's own call); "" (the generic wording) when it cannot be had, or for an
 * account that is gone or deactivated. A call made while this host is still starting (a consumer's first events) is
 * retried for a few seconds.
 */
export async function djNameOf(svc: RoomServiceContext, djId: string): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    try {
      const { profiles } = await svc.profiles.getProfiles({ users: [djId] }, { signal: svc.signal });
      return profiles[0]?.nickname ?? "";
    } catch (err) {
      if (attempt < 10 && err instanceof ConnectError && err.code === Code.Unavailable && !svc.signal.aborted) {
        await new Promise((r) => setTimeout(r, 300));
        continue;
      }
      svc.logger.warn({ err, djUuid: djId }, "DJ profile unavailable: fans get the generic wording");
      return "";
    }
  }
}

/** One durable consumer per deployment (a hash of its database name): replicas share it, test runs do not. */
export function songStartedDurable(orm: MikroORM): string {
  return deploymentDurable(orm, "room-dj-fans-song-started", { hashChars: 10 });
}

/**
 * Marks a play as handled by `consumer` in the consumers' `processed_event` table (the play id stands in for
 * the event id): true the first time. The stage may write a play's event twice (a song timer taken over by
 * another instance), under two event ids, so the event id's mark alone would notify twice.
 */
async function claimPlay(em: EntityManager, consumer: string, playId: string): Promise<boolean> {
  return markProcessed(em, consumer, playId);
}

/**
 * The live stage's SongStarted (tt.social.song.started): the DJ's fans are notified once per play (the
 * consumer's mark per event, and one per play id) and at most once per interval per DJ (the slot), so a DJ
 * playing song after song sends one notification per interval. A new consumer starts at the next event (old
 * plays notify nobody), and an event about a song that started long ago is dropped. The DJ's name comes from the user service; when it cannot
 * be reached the generic wording is sent rather than holding the notification back.
 */
export function consumeSongStarted(svc: RoomServiceContext): Promise<Subscription> {
  const durable = songStartedDurable(svc.orm);
  return consumeEvents(
    svc.bus,
    SongStartedSchema,
    async (event, ctx) => {
      if (!UUID.test(event.djUuid) || !UUID.test(event.roomUuid)) {
        svc.logger.warn({ djUuid: event.djUuid, roomUuid: event.roomUuid }, "SongStarted without a DJ or room uuid");
        return;
      }
      const startedAt = event.startedAt ? timestampDate(event.startedAt) : (ctx.occurredAt ?? new Date());
      if (Date.now() - startedAt.getTime() > STALE_AFTER_MS) return; // "is playing" about a song long over
      if (event.playId && !(await claimPlay(ctx.em, `${durable}:play`, event.playId.slice(0, 200)))) return;
      const roomId = event.roomUuid.toLowerCase();
      const room = await ctx.em.findOne(Room, { id: roomId });
      const djName = await djNameOf(svc, event.djUuid.toLowerCase());
      await notifyDjStartedPlaying(ctx.em, svc.people.config.DJ_FANS_NOTIFICATION_INTERVAL_SECONDS, {
        djId: event.djUuid,
        roomId,
        djName,
        roomName: room?.name ?? event.roomName,
      });
    },
    { durable, orm: svc.orm, logger: svc.logger, deliver: "new" },
  );
}
