// SongService: the /api/room-service song and upload paths (specification 001 §7 "Songs and uploads").
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import { callEm, callIdentity, publishEvent } from "@tt/kit";
import { UploadedSongRemovedSchema, UploadedSongPublishedSchema } from "@tt/proto/tt/upload/v1/events_pb";
import type { SongService } from "@tt/proto/tt/upload/v1/song_service_pb";
import { AUDIO_MIME_TYPES, sniffAudio } from "../media/sniff.ts";
import { missingFields, readTags } from "../media/tags.ts";
import { QUALITIES } from "../packaging/ffmpeg.ts";
import { enqueuePackaging } from "../packaging/jobs.ts";
import { setOutcome } from "../packaging/packager.ts";
import { mediaVersionOf, renditionPrefix, sourceKey, variantPlaylistUrl } from "../modules/songs/song-keys.ts";
import { awaitsPackaging, transition, type SongStatusName } from "../modules/songs/song-states.ts";
import { publishedEvent, songView } from "../modules/songs/song-view.ts";
import { Song } from "../modules/songs/song.entity.ts";
import { callbackSignature, checkKeyToken, sameHex } from "../modules/songs/signatures.ts";
import {
  DELETE_REFUSED,
  isOwner,
  playableSong,
  PUBLIC_SONGS,
  readableSong,
  searchFilter,
  songById,
  songPage,
  STAFF_ROLES,
  UPLOAD_REFUSED,
  verifiedSong,
  type UploadContext,
} from "./context.ts";
import { playbackCaller, playbackTicket } from "./playback.ts";
import { editSong } from "./song-edits.ts";

const M3U8 = "application/vnd.apple.mpegurl";

/** The master playlist: the three renditions, lowest first (hls.js levels 0, 1, 2 = low, medium, high). */
/** The master playlist; with a playback ticket (native players) each variant URL carries it on. */
export function masterPlaylist(songId: number, ticket?: string): string {
  const lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-INDEPENDENT-SEGMENTS"];
  for (const q of QUALITIES) {
    lines.push(`#EXT-X-STREAM-INF:BANDWIDTH=${Math.round(q.kbps * 1100)},CODECS="mp4a.40.2",NAME="${q.name}"`);
    lines.push(variantPlaylistUrl(songId, q.name) + (ticket ? `?ticket=${ticket}` : ""));
  }
  return `${lines.join("\n")}\n`;
}

export function songRoutes(svc: UploadContext): ServiceImpl<typeof SongService> {
  const editOptions = {
    shards: svc.config.UPLOAD_PACKAGING_SHARDS,
    maxDuration: svc.config.UPLOAD_MAX_DURATION_SECONDS,
  };
  return {
    async searchSongs(req, ctx) {
      return songPage(callEm(ctx), searchFilter(req.term, callIdentity(ctx)), req.limit, req.offset);
    },

    async updateMetadata(req, ctx) {
      const em = callEm(ctx);
      const song = await songById(em, req.songId);
      return { song: songView(await editSong(em, song, req, callIdentity(ctx), editOptions)) };
    },

    async listPublicSongs(req, ctx) {
      return songPage(callEm(ctx), PUBLIC_SONGS, req.limit, req.offset);
    },

    async getSong(req, ctx) {
      return { song: songView(await readableSong(callEm(ctx), req.id, callIdentity(ctx))) };
    },

    async updateSong(req, ctx) {
      const em = callEm(ctx);
      const song = await songById(em, req.id);
      return { song: songView(await editSong(em, song, req, callIdentity(ctx), editOptions)) };
    },

    async deleteSong(req, ctx) {
      const em = callEm(ctx);
      const who = callIdentity(ctx);
      const song = await songById(em, req.id);
      if (!isOwner(song, who) && !STAFF_ROLES.has(who.role)) {
        throw new ConnectError(DELETE_REFUSED, Code.PermissionDenied);
      }
      const { uuid, mediaVersion, owner, id } = song;
      publishEvent(em, UploadedSongRemovedSchema, { songUuid: uuid, songId: BigInt(id), ownerUuid: owner });
      em.remove(song);
      await em.flush();
      // The files go after the row: a failure here leaves unreachable files, never a song without media.
      await removeMedia(svc, uuid, mediaVersion).catch((err: unknown) =>
        svc.logger.warn({ err, song: uuid }, "removing a deleted song's files failed"),
      );
      return {};
    },

    async listSongs(req, ctx) {
      const who = callIdentity(ctx);
      const where =
        req.verified === undefined
          ? { owner: who.subject }
          : req.verified
            ? { owner: who.subject, status: "VERIFIED" }
            : { owner: who.subject, status: { $ne: "VERIFIED" } };
      return songPage(callEm(ctx), where, req.limit, req.offset);
    },

    async getHlsPlaylist(req, ctx) {
      const caller = playbackCaller(svc, ctx, req.id, req.ticket);
      const em = callEm(ctx);
      // A ticket was issued only to a caller allowed to play the song (issue 23); a token's caller is asked now.
      const song = caller.ticket
        ? await verifiedSong(em, req.id)
        : await playableSong(svc, em, req.id, callIdentity(ctx), req.room, ctx.signal);
      // The variants of a song that is not public are not asked about the room again: they get the caller's ticket.
      const ticket = caller.ticket ?? (song.public ? undefined : playbackTicket(svc, ctx, song) || undefined);
      ctx.responseHeader.set("cache-control", ticket || !song.public ? "private, no-store" : "private, max-age=60");
      return { body: { contentType: M3U8, data: new TextEncoder().encode(masterPlaylist(song.id, ticket)) } };
    },

    async getHlsKey(req, ctx) {
      if (req.ticket) {
        playbackCaller(svc, ctx, req.songId, req.ticket);
        const song = await verifiedSong(callEm(ctx), req.songId);
        ctx.responseHeader.set("cache-control", "private, no-store");
        return { body: { contentType: "application/octet-stream", data: new Uint8Array(song.hlsKey) } };
      }
      const who = callIdentity(ctx);
      if (req.expires === 0n || !req.token) {
        throw new ConnectError("expires and token, or ticket, missing in request", Code.InvalidArgument);
      }
      const songId = Number(req.songId);
      const check = checkKeyToken(svc.secrets.keyUrl, songId, who.subject, Number(req.expires), req.token);
      if (check === "mismatch") {
        throw new ConnectError("the key URL was not issued to this caller", Code.Unauthenticated);
      }
      if (check === "expired") throw new ConnectError("the key URL has expired", Code.Unauthenticated);
      const song = await verifiedSong(callEm(ctx), req.songId);
      ctx.responseHeader.set("cache-control", "private, no-store");
      return { body: { contentType: "application/octet-stream", data: new Uint8Array(song.hlsKey) } };
    },

    async checkUpload(_req, ctx) {
      if (!(await svc.canUpload(callIdentity(ctx).subject, ctx.signal))) {
        throw new ConnectError(UPLOAD_REFUSED, Code.PermissionDenied);
      }
      return {};
    },

    async uploadSong(req, ctx) {
      const who = callIdentity(ctx);
      const file = req.file;
      if (!file || file.content.length === 0) throw new ConnectError("file missing in request", Code.InvalidArgument);
      if (!(await svc.canUpload(who.subject, ctx.signal))) {
        throw new ConnectError(UPLOAD_REFUSED, Code.PermissionDenied);
      }
      let status: SongStatusName = "PENDING_UPLOAD";
      const type = sniffAudio(file.content);
      if (!type) {
        throw new ConnectError(
          "file is not a supported audio file (MP3, FLAC, OGG, WAV, M4A or AAC)",
          Code.InvalidArgument,
        );
      }
      status = transition(status, "fileTypeValid");
      const tags = await readTags(file.content, type);
      if (tags.duration > svc.config.UPLOAD_MAX_DURATION_SECONDS) {
        throw new ConnectError(
          `the song is longer than ${svc.config.UPLOAD_MAX_DURATION_SECONDS} seconds`,
          Code.InvalidArgument,
        );
      }
      if (req.trackName.trim()) tags.trackName = req.trackName.trim();
      if (req.artistName.trim()) tags.artistName = req.artistName.trim();
      if (req.albumName.trim()) tags.albumName = req.albumName.trim();
      status = transition(status, missingFields(tags).length > 0 ? "metadataIncomplete" : "metadataComplete");

      const uuid = randomUUID();
      // The original first: the packaging job (committed with the row) must find it.
      await svc.store.put(sourceKey(uuid), file.content, AUDIO_MIME_TYPES[type]);
      const em = callEm(ctx);
      const song = em.create(Song, {
        uuid,
        owner: who.subject,
        ...tags,
        status,
        public: req.public,
        fileType: type,
        sourceBytes: file.content.length,
        hlsKey: randomBytes(16),
        hlsIv: randomBytes(16),
      });
      if (status === "UNVERIFIED") enqueuePackaging(em, uuid, svc.config.UPLOAD_PACKAGING_SHARDS);
      try {
        await em.flush();
      } catch (err) {
        await svc.store.delete(sourceKey(uuid)).catch(() => undefined);
        throw err;
      }
      return { song: songView(song) };
    },

    async transcoderCallback(req, ctx) {
      const now = Math.floor(Date.now() / 1000);
      const expected = callbackSignature(svc.secrets.callback, req);
      if (!sameHex(expected, req.signature) || Math.abs(now - Number(req.timestamp)) > 300) {
        throw new ConnectError("invalid signature", Code.Unauthenticated);
      }
      const fork = callEm(ctx);
      const song = await fork.findOne(Song, { uuid: req.songUuid });
      if (!song) throw new ConnectError("Song not found", Code.NotFound);
      const status = song.status as SongStatusName;
      const refuse = () =>
        new ConnectError(`a ${status} song cannot be reported ${req.status}`, Code.FailedPrecondition);
      switch (req.status) {
        case "UNVERIFIED":
          if (!awaitsPackaging(status)) throw refuse();
          await fork.nativeUpdate(Song, { uuid: song.uuid }, { progress: req.progress });
          break;
        case "VERIFICATION_ERROR":
        case "VERIFICATION_POSTPONED":
          if (!awaitsPackaging(status)) throw refuse();
          await setOutcome(
            { orm: svc.orm },
            song.uuid,
            req.status === "VERIFICATION_ERROR" ? "packagingFailed" : "packagingPostponed",
            req.message,
          );
          break;
        case "VERIFIED": {
          if (!awaitsPackaging(status)) throw refuse();
          const source = await svc.store.get(sourceKey(song.uuid));
          const version = source
            ? mediaVersionOf(song.uuid, createHash("sha256").update(source.body).digest("hex"))
            : "";
          for (const q of QUALITIES) {
            if (!version || !(await svc.store.get(`${renditionPrefix(song.uuid, version, q.name)}/index.m3u8`))) {
              throw new ConnectError("the song's media is not in the object store", Code.FailedPrecondition);
            }
          }
          await svc.orm.em.fork().transactional(async (em) => {
            const current = await em.findOneOrFail(Song, { uuid: song.uuid });
            if (!awaitsPackaging(current.status)) throw refuse();
            current.status = transition(current.status as SongStatusName, "packaged");
            current.mediaVersion = version;
            current.progress = 100;
            current.statusMessage = "";
            publishEvent(em, UploadedSongPublishedSchema, publishedEvent(current));
          });
          break;
        }
        default:
          throw new ConnectError(
            "status must be UNVERIFIED, VERIFIED, VERIFICATION_ERROR or VERIFICATION_POSTPONED",
            Code.InvalidArgument,
          );
      }
      const after = await svc.orm.em.fork().findOneOrFail(Song, { uuid: song.uuid });
      return { status: after.status };
    },
  };
}

/** Deletes a song's original and every rendition's files (the playlists name the segments). */
export async function removeMedia(svc: Pick<UploadContext, "store">, uuid: string, version: string): Promise<void> {
  if (version) {
    for (const q of QUALITIES) {
      const prefix = renditionPrefix(uuid, version, q.name);
      const playlist = await svc.store.get(`${prefix}/index.m3u8`);
      const segments = playlist ? (new TextDecoder().decode(playlist.body).match(/seg_\d{5}\.ts/g) ?? []) : [];
      for (const name of segments) await svc.store.delete(`${prefix}/${name}`);
      await svc.store.delete(`${prefix}/index.m3u8`);
    }
  }
  await svc.store.delete(sourceKey(uuid));
}
