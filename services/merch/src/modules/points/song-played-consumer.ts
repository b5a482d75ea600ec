// The live stage's SongPlayed (tt.social.song.played, issue 14): the DJ earns points from the play's votes, once
// per play. Exactly once twice over: the durable consumer's mark skips a redelivered event, and the award's key
// (`song-played:<play id>`) makes a play announced twice (two event ids: a song timer taken over by another social
// instance) change nothing the second time. The formula is in
// docs/decisions/0209-dj-points-one-for-the-play-and-the-rooms-votes.md.
import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { MikroORM } from "@mikro-orm/postgresql";
import { type Bus, consumeEvents, deploymentDurable, isUuid } from "@tt/kit";
import type { SongPlayed } from "@tt/proto/tt/social/v1/events_pb";
import { SongPlayedSchema } from "@tt/proto/tt/social/v1/events_pb";
import type { Logger } from "pino";
import { awardPoints, currentSeason } from "./award.ts";

/** Seconds a song must play (or play to its end) for the DJ's point for playing it. */
export const PLAY_POINT_MIN_SECONDS = 30;

/**
 * The DJ's points for one play: 1 for playing it (at least 30 s, or to its end, and not voted off), plus 1 per
 * like, plus 2 per grab (a listener kept the song), minus 1 per dislike; never below 0 (a play never takes
 * points away). Votes are one per listener and never the DJ's own (the stage enforces both).
 */
export function pointsForPlay(play: Pick<SongPlayed, "likes" | "dislikes" | "grabs" | "playedSeconds" | "endReason">) {
  const count = (n: number) => (Number.isFinite(n) && n > 0 ? Math.floor(n) : 0);
  const played =
    play.endReason !== "vote-skip" && (play.endReason === "ended" || play.playedSeconds >= PLAY_POINT_MIN_SECONDS)
      ? 1
      : 0;
  return Math.max(0, played + count(play.likes) + 2 * count(play.grabs) - count(play.dislikes));
}

/** Durable name shared by the replicas of one deployment (a hash of its database name). */
export function songPlayedDurable(orm: MikroORM): string {
  return deploymentDurable(orm, "merch-dj-points");
}

export async function startSongPlayedConsumer(deps: { bus: Bus; orm: MikroORM; logger: Logger }) {
  return consumeEvents(
    deps.bus,
    SongPlayedSchema,
    async (event, ctx) => {
      if (!isUuid(event.djUuid) || !event.playId) {
        deps.logger.warn({ djUuid: event.djUuid, playId: event.playId }, "SongPlayed without a DJ or play id");
        return;
      }
      const points = pointsForPlay(event);
      if (points === 0) return;
      // Counted in the season the song ended in, even when the event is handled after the next one began.
      const endedAt = event.endedAt ? timestampDate(event.endedAt) : (ctx.occurredAt ?? new Date());
      const em = deps.orm.em.fork();
      const season = await currentSeason(em, endedAt);
      await awardPoints(em, {
        userUuid: event.djUuid.toLowerCase(),
        points,
        eventKey: `song-played:${event.playId.slice(0, 200)}`,
        ...(season ? { seasonId: season.id } : {}),
        reason: `played a song in ${event.roomSlug || event.roomUuid}`.slice(0, 200),
      });
    },
    { durable: songPlayedDurable(deps.orm), orm: deps.orm, logger: deps.logger },
  );
}
