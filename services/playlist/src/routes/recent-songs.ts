// RecentSongsService: the songs played in a room, stored by the room's uuid. The live stage posts each song
// that finished with the room's uuid and current slug; the newest slug → uuid mapping answers the GET, so a
// renamed room (new slug) keeps its history (docs/decisions/0156-recent-songs-are-stored-by-room-uuid-the-slug.md). A
// private room's songs only to those who may see it: the room service decides (RoomService.AdmitViewer, issue 23).
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import { Code, ConnectError } from "@connectrpc/connect";
import { callEm, checkLimit, kIdentity } from "@tt/kit";
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

/**
 * The uuid of the room a slug names, once the room service lets the caller see it (for a private room, 401 without a
 * token and 403 for a stranger; a public room to anyone). Undefined for a service caller (services read every
 * room's history) and for a slug the room service does not know (a room it never had or deleted, whose history the
 * stage posted): those are found by the slugs the room events mapped, as before. A room service that cannot answer
 * refuses the read (503): a private room's history is never given unchecked.
 */
async function admittedRoom(
  svc: PlaylistServiceContext,
  slug: string,
  ctx: HandlerContext,
): Promise<string | undefined> {
  const identity = ctx.values.get(kIdentity);
  if (identity?.tokenType === "service") return undefined;
  const user = identity && identity.tokenType !== "guest" ? identity.subject : "";
  const guest = identity?.tokenType === "guest" ? identity.subject : "";
  try {
    const { room } = await svc
      .rooms()
      .admitViewer({ room: slug, userUuid: user, guestSubject: guest }, { signal: ctx.signal });
    return room?.uuid;
  } catch (err) {
    const e = ConnectError.from(err);
    if (e.code === Code.NotFound) return undefined;
    // A private room refuses a caller without a token: sign in first (401, as every other read of the room).
    if (!identity && e.code === Code.PermissionDenied) throw new ConnectError("Unauthorized", Code.Unauthenticated);
    if (e.code === Code.Unauthenticated || e.code === Code.PermissionDenied || e.code === Code.InvalidArgument) {
      throw new ConnectError(e.rawMessage, e.code);
    }
    throw new ConnectError(
      "The room service cannot be reached to check this room, try again shortly",
      Code.Unavailable,
      undefined,
      undefined,
      err,
    );
  }
}

export function recentSongRoutes(svc: PlaylistServiceContext): ServiceImpl<typeof RecentSongsService> {
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
      // The access check first (issue 23), then the input's.
      const admitted = await admittedRoom(svc, req.slug, ctx);
      const limit = checkLimit(req.limit, RECENT_DEFAULT_PAGE, RECENT_MAX_PAGE);
      const em = callEm(ctx);
      const roomUuid = admitted ?? (await em.findOne(RoomSlug, { slug: req.slug }))?.roomUuid;
      if (!roomUuid) return { songPlays: [], total: 0, limit, offset: req.offset };
      const [plays, total] = await em.findAndCount(
        SongPlay,
        { roomUuid },
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
