// The live stage's SongPlayed (tt.social.song.played, issue 14): the finished song joins the room's recent songs,
// stored under the room's uuid with the play's id as the song play's id, so a play announced twice (two event
// ids: a song timer taken over by another social instance) is stored once. The room's slug at the time maps to
// its uuid as a POST does. A song the catalogue does not know (or no longer knows by its id) is found or created
// from the event's data by the same-track rule.
import { create } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import type { EntityManager } from "@mikro-orm/postgresql";
import { consumeEvents, deploymentDurable, isUuid, type Subscription } from "@tt/kit";
import { SongInputSchema } from "@tt/proto/tt/playlist/v1/song_pb";
import type { PlayedSong, SongPlayed } from "@tt/proto/tt/social/v1/events_pb";
import { SongPlayedSchema } from "@tt/proto/tt/social/v1/events_pb";
import type { PlaylistServiceContext } from "../../context.ts";
import { MUSIC_PROVIDERS, resolveSongInput } from "../catalogue/catalogue.ts";
import type { Song } from "../catalogue/song.entity.ts";
import { mapSlug } from "./room-events.ts";
import { SongPlay } from "./song-play.entity.ts";

const PROVIDERS = new Set(MUSIC_PROVIDERS);

/** The catalogue song of a played song: its id when the catalogue still has it, else by its data. */
async function songOf(em: EntityManager, played: PlayedSong): Promise<Song> {
  if (isUuid(played.songId)) {
    try {
      return await resolveSongInput(em, create(SongInputSchema, { songId: played.songId }), "song");
    } catch (err) {
      if (!(err instanceof ConnectError && err.code === Code.NotFound)) throw err;
    }
  }
  const known = (map: Record<string, string>) =>
    Object.fromEntries(Object.entries(map).filter(([provider]) => PROVIDERS.has(provider)));
  return resolveSongInput(
    em,
    create(SongInputSchema, {
      isrc: /^[A-Za-z0-9-]{0,15}$/.test(played.isrc) ? played.isrc : "",
      trackName: played.title.slice(0, 300),
      artistName: played.artist.slice(0, 300),
      duration: Number.isFinite(played.duration) && played.duration > 0 ? played.duration : 0,
      explicit: played.explicit,
      musicProviders: known(played.musicProviders),
      thumbnails: known(played.thumbnails),
      genre: played.genre.slice(0, 100),
      albumName: played.albumName.slice(0, 300),
      releaseYear: played.releaseYear >= 0 && played.releaseYear <= 3000 ? played.releaseYear : 0,
    }),
    "song",
  );
}

/** Stores one finished play (once per play id); false when it was already stored or cannot be. */
export async function recordPlayedSong(
  em: EntityManager,
  event: SongPlayed,
  at: Date,
  logger: PlaylistServiceContext["logger"],
): Promise<boolean> {
  if (!isUuid(event.roomUuid) || !event.song) {
    logger.warn({ roomUuid: event.roomUuid, playId: event.playId }, "SongPlayed without a room uuid or song: ignored");
    return false;
  }
  const playId = isUuid(event.playId) ? event.playId.toLowerCase() : undefined;
  if (playId && (await em.findOne(SongPlay, { id: playId }))) return false;
  let song: Song;
  try {
    song = await songOf(em, event.song);
  } catch (err) {
    // A song the catalogue refuses (no title and no providers, …) would be refused forever: log it and go on.
    if (err instanceof ConnectError && (err.code === Code.InvalidArgument || err.code === Code.NotFound)) {
      logger.warn({ err, playId: event.playId }, "SongPlayed with a song the catalogue refuses: ignored");
      return false;
    }
    throw err;
  }
  const roomUuid = event.roomUuid.toLowerCase();
  await mapSlug(em, event.roomSlug, roomUuid, at);
  em.create(SongPlay, {
    ...(playId ? { id: playId } : {}),
    roomUuid,
    song,
    djUuid: isUuid(event.djUuid) ? event.djUuid.toLowerCase() : null,
    playedAt: event.startedAt ? timestampDate(event.startedAt) : at,
  });
  await em.flush();
  return true;
}

/** Subscribes to the stage's SongPlayed; `unsubscribe` ends it. */
export function startStageConsumer(svc: PlaylistServiceContext): Promise<Subscription> {
  const durable = deploymentDurable(svc.orm, "playlist-recent-songs", {
    configured: svc.config.recentSongs.RECENT_SONGS_ROOM_DURABLE,
  });
  return consumeEvents(
    svc.bus,
    SongPlayedSchema,
    async (event, ctx) => {
      await recordPlayedSong(ctx.em, event, ctx.occurredAt ?? new Date(), svc.logger);
    },
    { durable: `${durable}-song-played`, orm: svc.orm, logger: svc.logger },
  );
}
