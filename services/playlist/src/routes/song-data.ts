// SongDataService (002 §4, §5, §7): songs by link or by provider id become catalogue songs, enriched from the
// provider only when not complete; stream and preview URLs by country and quality; migrate-links.
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import { Code, ConnectError } from "@connectrpc/connect";
import type { EntityManager } from "@mikro-orm/postgresql";
import { callEm, kIdentity } from "@tt/kit";
import { toConnectProviderError } from "@tt/providers";
import type { SongDataService } from "@tt/proto/tt/playlist/v1/song_data_service_pb";
import type { PlaylistServiceContext } from "../context.ts";
import { songMessage } from "../modules/catalogue/catalogue.ts";
import { applyUploadedSongPublished } from "../modules/catalogue/upload-events.ts";
import type { Song } from "../modules/catalogue/song.entity.ts";
import {
  catalogueSongOf,
  labelOf,
  resolveProviderSong,
  songByIdOrShortId,
} from "../modules/song-data/provider-songs.ts";
import { isRecognisedLink, parseSongLink } from "../music/links.ts";
import type { MusicProviders } from "../providers/index.ts";
import type { AudioQuality } from "../providers/seven-digital.ts";

type Impl = ServiceImpl<typeof SongDataService>;

export const NOT_A_MUSIC_LINK = "link is not a recognised music link";
/** Links one migrate-links call may carry. */
export const MAX_MIGRATE_LINKS = 50;

/** The catalogue song a link points at; it must have an isrc (002 §5). */
export async function songOfLink(em: EntityManager, providers: MusicProviders, link: string): Promise<Song> {
  if (!isRecognisedLink(link)) throw new ConnectError(NOT_A_MUSIC_LINK, Code.InvalidArgument);
  const parsed = parseSongLink(link);
  if (parsed === undefined) throw new ConnectError("song not found", Code.NotFound);
  const provider = parsed.provider;
  let id = parsed.id;
  // SoundCloud and Audius links name a permalink: resolve it to the track's id first (a catalogue song may
  // already carry the permalink as its link).
  if (provider === "soundCloudPublic" && id.startsWith("http")) {
    if (!providers.soundcloud) throw new ConnectError("song not found", Code.NotFound);
    const resolved = await providers.soundcloud.resolve(id).catch((error: unknown) => {
      throw toConnectProviderError(error, "SoundCloud", {
        refusal: { message: "song not found", code: Code.NotFound },
        unavailable: "SoundCloud is not available",
      });
    });
    if (resolved === undefined) throw new ConnectError("song not found", Code.NotFound);
    id = resolved;
  }
  if (provider === "audius" && id.startsWith("/")) {
    if (!providers.audius) throw new ConnectError("song not found", Code.NotFound);
    const resolved = await providers.audius.resolve(`https://audius.co${id}`);
    if (resolved === undefined) throw new ConnectError("song not found", Code.NotFound);
    id = resolved;
  }
  if (provider === "youtube") {
    const song = await catalogueSongOf(em, "youtube", id);
    if (!song) throw new ConnectError("song not found", Code.NotFound);
    if (!song.isrc) throw new ConnectError("song not found", Code.NotFound);
    return song;
  }
  const song = await resolveProviderSong(em, providers, provider, id, parsed.storefront ?? "us");
  if (!song.isrc) throw new ConnectError("song not found", Code.NotFound);
  return song;
}

function streamOf(providers: MusicProviders, song: Song, country: string, quality: AudioQuality) {
  const ids = song.musicProviders;
  const stored = (provider: string) => song.streamUrls[provider];
  const upload = stored("uploadService");
  if (ids.uploadService !== undefined && (upload?.hls || upload?.http)) {
    return upload.hls
      ? { musicProvider: "uploadService", url: upload.hls, format: "hls" }
      : { musicProvider: "uploadService", url: upload.http!, format: "http" };
  }
  if (ids.sevenDigital !== undefined && providers.sevenDigital) {
    return {
      musicProvider: "sevenDigital",
      url: providers.sevenDigital.mediaUrl(ids.sevenDigital, country, quality),
      format: "http",
    };
  }
  if (ids.audius !== undefined && providers.audius) {
    return { musicProvider: "audius", url: providers.audius.streamUrl(ids.audius), format: "http" };
  }
  for (const [provider, urls] of Object.entries(song.streamUrls)) {
    if (urls.hls) return { musicProvider: provider, url: urls.hls, format: "hls" };
    if (urls.http) return { musicProvider: provider, url: urls.http, format: "http" };
  }
  return undefined;
}

/** The roles that may see (and remove) any upload, as the upload service's STAFF_ROLES. */
const STAFF_ROLES = new Set(["admin", "globalModerator", "staff", "superUser"]);

function mayReadPrivateUpload(ctx: HandlerContext, owner: string | null | undefined): boolean {
  const who = ctx.values.get(kIdentity);
  if (!who) return false;
  return who.tokenType === "service" || STAFF_ROLES.has(who.role) || (!!owner && who.subject === owner);
}

export function songDataRoutes(svc: PlaylistServiceContext): Impl {
  const providers = svc.music.providers;

  const byProvider = async (ctx: HandlerContext, providerSongId: string, musicProvider: string) => {
    const id = providerSongId.trim();
    if (musicProvider === "uploadService") await takeInUpload(ctx, id);
    const song = await callEm(ctx).transactional((em) => resolveProviderSong(em, providers, musicProvider, id, "us"));
    // Issue 23: an upload that is not public is its owner's (and admins', services') to see, as at the upload
    // service: the same 404 as for no song, so a counted id tells a stranger nothing.
    if (!song.public && song.uploadSongUuid && !mayReadPrivateUpload(ctx, song.ownerUuid)) {
      throw new ConnectError("song not found", Code.NotFound);
    }
    return song;
  };

  // Issue 23: an upload reported VERIFIED is a song at once, even before its event reached the catalogue.
  const takeInUpload = async (ctx: HandlerContext, id: string) => {
    if (!svc.uploads || (await catalogueSongOf(callEm(ctx), "uploadService", id))) return;
    const published = await svc.uploads(id, ctx.signal);
    if (published) await callEm(ctx).transactional((em) => applyUploadedSongPublished(em, published));
  };

  return {
    async getSongDataByLink(req, ctx) {
      return { song: songMessage(await callEm(ctx).transactional((em) => songOfLink(em, providers, req.link))) };
    },

    async getSongData(req, ctx) {
      return { song: songMessage(await byProvider(ctx, req.providerSongId, req.musicProvider)) };
    },

    async getSongDataProviders(req, ctx) {
      const song = await byProvider(ctx, req.providerSongId, req.musicProvider);
      return { song: songMessage(song), musicProviders: { ...song.musicProviders } };
    },

    async getServiceSongData(req, ctx) {
      return { song: songMessage(await byProvider(ctx, req.providerSongId, req.musicProvider)) };
    },

    async getStreamUrl(req, ctx) {
      const song = await songByIdOrShortId(callEm(ctx), req.id);
      const quality = (req.quality || "medium") as AudioQuality;
      const country = req.country.toUpperCase();
      let stream = streamOf(providers, song, country, quality);
      if (stream === undefined && song.musicProviders.soundCloudPublic !== undefined && providers.soundcloud) {
        try {
          const streams = await providers.soundcloud.streams(song.musicProviders.soundCloudPublic);
          if (streams.hls) stream = { musicProvider: "soundCloudPublic", url: streams.hls, format: "hls" };
          else if (streams.http) stream = { musicProvider: "soundCloudPublic", url: streams.http, format: "http" };
        } catch (error) {
          throw toConnectProviderError(error, labelOf("soundCloudPublic"), {
            refusal: { message: "no stream for this song", code: Code.NotFound },
            unavailable: "SoundCloud is not available",
          });
        }
      }
      if (stream === undefined) throw new ConnectError("no stream for this song", Code.NotFound);
      return stream;
    },

    async getPreviewUrl(req, ctx) {
      const song = await songByIdOrShortId(callEm(ctx), req.id);
      const stored = song.previews[0];
      if (stored) return { url: stored };
      if (song.musicProviders.sevenDigital !== undefined && providers.sevenDigital) {
        return { url: providers.sevenDigital.previewUrl(song.musicProviders.sevenDigital, req.country) };
      }
      throw new ConnectError("no preview for this song", Code.NotFound);
    },

    async migrateLinks(req, ctx) {
      if (req.links.length > MAX_MIGRATE_LINKS) {
        throw new ConnectError(`links must hold between 1 and ${MAX_MIGRATE_LINKS} links`, Code.InvalidArgument);
      }
      const links = [];
      for (const link of req.links) {
        try {
          const song = await callEm(ctx).transactional((em) => songOfLink(em, providers, link));
          links.push({ link, song: songMessage(song), error: "" });
        } catch (error) {
          if (!(error instanceof ConnectError) || error.code === Code.Internal) throw error;
          links.push({ link, error: error.rawMessage });
        }
      }
      return { links };
    },
  };
}
