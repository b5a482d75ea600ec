// RecentSongsService: the songs played in a room, stored by the room's uuid. The live stage posts each song
// that finished with the room's uuid and current slug; the newest slug → uuid mapping answers the GET, so a
// renamed room (new slug) keeps its history (docs/decisions.md).
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import { Code, ConnectError } from "@connectrpc/connect";
import { callEm, checkLimit } from "@tt/kit";
import type { RecentSongsService } from "@tt/proto/tt/playlist/v1/recent_songs_service_pb";
import type { PlaylistServiceContext } from "../context.ts";
import { resolveSongInput, songMessage } from "../modules/catalogue/catalogue.ts";
import type { Song } from "../modules/catalogue/song.entity.ts";
import { mapSlug } from "../modules/recent-songs/room-events.ts";
import { RoomSlug } from "../modules/recent-songs/room-slug.entity.ts";
import { SongPlay } from "../modules/recent-songs/song-play.entity.ts";

export const RECENT_DEFAULT_PAGE = 20;
export const RECENT_MAX_PAGE = 100;

const playMessage = (play: SongPlay) => ({
  songPlayUuid: play.id,
  roomUuid: play.roomUuid,
  djUuid: play.djUuid ?? "",
  playedAt: timestampFromDate(play.playedAt),
  song: songMessage(play.song as Song),
});

export function recentSongRoutes(_svc: PlaylistServiceContext): ServiceImpl<typeof RecentSongsService> {
  return {
    async addRecentSong(req, ctx) {
      if (!req.song) throw new ConnectError("song missing in request", Code.InvalidArgument);
      const songInput = req.song;
      const playedAt = req.playedAt ? timestampDate(req.playedAt) : new Date();
      if (
        Number.isNaN(playedAt.getTime()) ||
        playedAt.getTime() > Date.now() + 60_000 ||
        playedAt.getUTCFullYear() < 2000
      ) {
        throw new ConnectError("playedAt must be a time between 2000 and now", Code.InvalidArgument);
      }
      return callEm(ctx).transactional(async (em) => {
        const song = await resolveSongInput(em, songInput, "song");
        const roomUuid = req.roomUuid.toLowerCase();
        await mapSlug(em, req.slug, roomUuid, new Date());
        const play = em.create(SongPlay, {
          roomUuid,
          song,
          djUuid: req.djUuid ? req.djUuid.toLowerCase() : null,
          playedAt,
        });
        await em.flush();
        await em.populate(song, ["album", "artist"]);
        return { songPlay: playMessage(play) };
      });
    },

    async listRecentSongs(req, ctx) {
      const limit = checkLimit(req.limit, RECENT_DEFAULT_PAGE, RECENT_MAX_PAGE);
      const em = callEm(ctx);
      const room = await em.findOne(RoomSlug, { slug: req.slug });
      if (!room) return { songPlays: [], total: 0, limit, offset: req.offset };
      const [plays, total] = await em.findAndCount(
        SongPlay,
        { roomUuid: room.roomUuid },
        {
          populate: ["song", "song.album", "song.artist"],
          orderBy: { playedAt: "desc", id: "asc" },
          limit,
          offset: req.offset,
        },
      );
      return { songPlays: plays.map(playMessage), total, limit, offset: req.offset };
    },
  };
}
