// CatalogueService: the catalogue's songs, albums and artists (the service variants for other services and
// admins, GET /api/v1/songs for every caller) and the crates by short id.
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import { Code, ConnectError } from "@connectrpc/connect";
import type { FilterQuery } from "@mikro-orm/core";
import { callEm, checkLimit, escapeLike, isUuid, kIdentity } from "@tt/kit";
import type { CatalogueService } from "@tt/proto/tt/playlist/v1/catalogue_service_pb";
import type { PlaylistServiceContext } from "../context.ts";
import { Album } from "../modules/catalogue/album.entity.ts";
import { Artist } from "../modules/catalogue/artist.entity.ts";
import { getSong, songMessage } from "../modules/catalogue/catalogue.ts";
import { SongProviderId } from "../modules/catalogue/song-provider-id.entity.ts";
import { Song } from "../modules/catalogue/song.entity.ts";
import { CRATE_PAGE, crateMessage, SONG_PAGE, songPage } from "../modules/crates/crate-store.ts";
import { Crate } from "../modules/crates/crate.entity.ts";

/** GET /api/v1/songs: 20 per page by default (002 §9's search page size), 100 at most. */
export const SONGS_DEFAULT_PAGE = 20;
export const SONGS_MAX_PAGE = 100;
/** POST /artists/service/albums-by-artists: at most this many artists. */
export const MAX_ARTISTS = 100;

const albumMessage = (album: Album, songsNumber = 0) => ({
  albumShortId: album.shortId,
  albumName: album.name,
  artistName: (album.artist as Artist).name ?? "",
  artistShortId: (album.artist as Artist).shortId ?? "",
  releaseYear: album.releaseYear,
  thumbnail: album.thumbnail,
  songsNumber,
});

const artistMessage = (artist: Artist, albumsNumber = 0) => ({
  artistShortId: artist.shortId,
  artistName: artist.name,
  albumsNumber,
});

export function catalogueRoutes(_svc: PlaylistServiceContext): ServiceImpl<typeof CatalogueService> {
  return {
    async listAllCrates(req, ctx) {
      const take = checkLimit(req.take, CRATE_PAGE, CRATE_PAGE, "take");
      const [crates, total] = await callEm(ctx).findAndCount(
        Crate,
        { special: null },
        { orderBy: { createdAt: "asc", id: "asc" }, limit: take, offset: req.skip },
      );
      return { crates: crates.map((c) => crateMessage(c)), total };
    },

    async listCrateSongsByShortId(req, ctx) {
      const take = checkLimit(req.take, SONG_PAGE, SONG_PAGE, "take");
      const em = callEm(ctx);
      const crate = await em.findOne(Crate, { shortId: req.crateShortId });
      if (!crate) throw new ConnectError("crate not found", Code.NotFound);
      return { songs: await songPage(em, crate.id, take, req.skip), total: crate.songsCount };
    },

    async listAllAlbums(req, ctx) {
      const take = checkLimit(req.take, CRATE_PAGE, CRATE_PAGE, "take");
      const [albums, total] = await callEm(ctx).findAndCount(
        Album,
        {},
        { populate: ["artist"], orderBy: { nameKey: "asc", id: "asc" }, limit: take, offset: req.skip },
      );
      return { albums: albums.map((a) => albumMessage(a)), total };
    },

    async listAlbumSongs(req, ctx) {
      const em = callEm(ctx);
      const album = await em.findOne(Album, { shortId: req.albumShortId }, { populate: ["artist"] });
      if (!album) throw new ConnectError("album not found", Code.NotFound);
      const songs = await em.find(
        Song,
        { album },
        { populate: ["album", "artist"], orderBy: { createdAt: "asc" }, limit: SONG_PAGE },
      );
      return { album: albumMessage(album, songs.length), songs: songs.map(songMessage) };
    },

    async listAllSongs(req, ctx) {
      const take = checkLimit(req.take, SONG_PAGE, SONG_PAGE, "take");
      const [songs, total] = await callEm(ctx).findAndCount(
        Song,
        {},
        { populate: ["album", "artist"], orderBy: { createdAt: "asc", id: "asc" }, limit: take, offset: req.skip },
      );
      return { songs: songs.map(songMessage), total };
    },

    async getSongByShortId(req, ctx) {
      const song = await callEm(ctx).findOne(Song, { shortId: req.songShortId }, { populate: ["album", "artist"] });
      if (!song) throw new ConnectError("song not found", Code.NotFound);
      return { song: songMessage(song) };
    },

    async listAllArtists(req, ctx) {
      const take = checkLimit(req.take, CRATE_PAGE, CRATE_PAGE, "take");
      const [artists, total] = await callEm(ctx).findAndCount(
        Artist,
        {},
        { orderBy: { nameKey: "asc", id: "asc" }, limit: take, offset: req.skip },
      );
      return { artists: artists.map((a) => artistMessage(a)), total };
    },

    async listArtistAlbums(req, ctx) {
      const em = callEm(ctx);
      const artist = await em.findOne(Artist, { shortId: req.artistShortId });
      if (!artist) throw new ConnectError("artist not found", Code.NotFound);
      const albums = await em.find(
        Album,
        { artist },
        { populate: ["artist"], orderBy: { nameKey: "asc" }, limit: CRATE_PAGE },
      );
      return { artist: artistMessage(artist, albums.length), albums: albums.map((a) => albumMessage(a)) };
    },

    async listAlbumsByArtists(req, ctx) {
      if (req.artistShortIds.length > MAX_ARTISTS) {
        throw new ConnectError(`artistShortIds must hold between 1 and ${MAX_ARTISTS} ids`, Code.InvalidArgument);
      }
      const em = callEm(ctx);
      const artists = await em.find(
        Artist,
        { shortId: { $in: [...new Set(req.artistShortIds)] } },
        { orderBy: { nameKey: "asc" } },
      );
      const albums =
        artists.length === 0
          ? []
          : await em.find(Album, { artist: { $in: artists } }, { populate: ["artist"], orderBy: { nameKey: "asc" } });
      return {
        artists: artists.map((artist) => {
          const own = albums.filter((a) => (a.artist as Artist).id === artist.id);
          return { artist: artistMessage(artist, own.length), albums: own.map((a) => albumMessage(a)) };
        }),
      };
    },

    async listSongs(req, ctx) {
      const limit = checkLimit(req.limit, SONGS_DEFAULT_PAGE, SONGS_MAX_PAGE);
      if (req.providerId && !req.musicProvider) {
        throw new ConnectError("musicProvider missing in request", Code.InvalidArgument);
      }
      const em = callEm(ctx);
      const where: FilterQuery<Song>[] = [];
      if (!req.includeUnavailable) where.push({ available: true });
      // Uploaded songs that are not public stay out of everyone's list but their owner's.
      const me = ctxSubject(ctx);
      where.push(me ? { $or: [{ public: true }, { ownerUuid: me }] } : { public: true });
      if (req.q.trim() !== "") {
        for (const word of req.q.trim().toLowerCase().split(/\s+/).slice(0, 8)) {
          const like = `%${escapeLike(word)}%`;
          where.push({ $or: [{ trackKey: { $like: like } }, { artistKey: { $like: like } }] });
        }
      }
      if (req.isrc) where.push({ isrc: req.isrc.trim().toUpperCase() });
      if (req.artistName) where.push({ artistKey: req.artistName.trim().toLowerCase() });
      if (req.albumName) where.push({ album: { nameKey: req.albumName.trim().toLowerCase() } });
      if (req.genre) where.push({ genre: { $ilike: escapeLike(req.genre.trim()) } });
      if (req.explicit === false) where.push({ explicit: false });
      if (req.explicit === true) where.push({ explicit: true });
      if (req.demo !== undefined) where.push({ demo: req.demo });
      if (req.musicProvider && req.providerId) {
        const row = await em.findOne(SongProviderId, { provider: req.musicProvider, providerId: req.providerId });
        if (!row) return { songs: [], total: 0, limit, offset: req.offset };
        where.push({ id: (row.song as Song).id });
      } else if (req.musicProvider) {
        where.push({ musicProviders: { $hasKey: req.musicProvider } });
      }
      const [songs, total] = await em.findAndCount(
        Song,
        { $and: where },
        { populate: ["album", "artist"], orderBy: { createdAt: "desc", id: "asc" }, limit, offset: req.offset },
      );
      return { songs: songs.map(songMessage), total, limit, offset: req.offset };
    },

    async getSong(req, ctx) {
      const em = callEm(ctx);
      const song = await getSong(em, req.songId);
      await em.populate(song, ["album", "artist"]);
      return { song: songMessage(song) };
    },
  };
}

/** The caller's subject when it is a uuid (a user's); others (anonymous, a service's name) own no song. */
function ctxSubject(ctx: HandlerContext): string | null {
  const subject = ctx.values.get(kIdentity)?.subject;
  return subject && isUuid(subject) ? subject.toLowerCase() : null;
}
