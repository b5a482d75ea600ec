// MediaService: the /api/upload-service paths (specification 002 §7) and the media of packaged songs.
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import { callEm, callIdentity } from "@tt/kit";
import type { MediaService } from "@tt/proto/tt/upload/v1/media_service_pb";
import { KEY_URI_PLACEHOLDER } from "../packaging/ffmpeg.ts";
import { KEY_URL_PATH, masterPlaylistUrl, renditionPrefix, segmentUrl } from "../modules/songs/song-keys.ts";
import { songView } from "../modules/songs/song-view.ts";
import { Song } from "../modules/songs/song.entity.ts";
import { checkSegmentToken, keyToken, segmentToken } from "../modules/songs/signatures.ts";
import { nativePlaylistUrl, playbackCaller } from "./playback.ts";
import { playableSong, readableSong, searchFilter, songPage, verifiedSong, type UploadContext } from "./context.ts";

const M3U8 = "application/vnd.apple.mpegurl";
const mediaNotFound = () => new ConnectError("Media not found", Code.NotFound);

/**
 * A stored variant playlist made for one listener: segment names become their immutable URLs and the key URI a
 * URL signed for this listener until `expires`.
 */
export function listenerPlaylist(
  stored: string,
  song: { id: number; uuid: string; mediaVersion: string },
  quality: string,
  keyUrl: string,
  segmentQuery = "",
): string {
  return stored
    .split("\n")
    .map((line) => {
      if (/^seg_\d{5}\.ts$/.test(line.trim())) {
        return segmentUrl(song.uuid, song.mediaVersion, quality, line.trim()) + segmentQuery;
      }
      if (line.startsWith("#EXT-X-KEY:")) return line.replace(`URI="${KEY_URI_PLACEHOLDER}"`, `URI="${keyUrl}"`);
      return line;
    })
    .join("\n");
}

export function mediaRoutes(svc: UploadContext): ServiceImpl<typeof MediaService> {
  return {
    async getSongById(req, ctx) {
      return { song: songView(await readableSong(callEm(ctx), req.id, callIdentity(ctx))) };
    },

    async getHlsPlaylistUrl(req, ctx) {
      const room = req.room.toLowerCase();
      const song = await playableSong(svc, callEm(ctx), req.id, callIdentity(ctx), room, ctx.signal);
      return {
        hlsPlaylistUrl: masterPlaylistUrl(song.id) + (room ? `?room=${room}` : ""),
        nativePlaylistUrl: nativePlaylistUrl(svc, ctx, song),
      };
    },

    async searchUploadedSongs(req, ctx) {
      return songPage(callEm(ctx), searchFilter(req.term, callIdentity(ctx)), req.limit, req.offset);
    },

    async listUserSongs(req, ctx) {
      const who = callIdentity(ctx);
      const all = who.tokenType === "service" || who.subject === req.userId.toLowerCase();
      const owner = req.userId.toLowerCase();
      const where = all ? { owner } : { owner, public: true, status: "VERIFIED" };
      return songPage(callEm(ctx), where, req.limit, req.offset);
    },

    async getVariantPlaylist(req, ctx) {
      const caller = playbackCaller(svc, ctx, req.id, req.ticket);
      const em = callEm(ctx);
      // A ticket was issued only to a caller allowed to play the song (issue 23); a token's caller is asked now.
      const song = caller.ticket
        ? await verifiedSong(em, req.id)
        : await playableSong(svc, em, req.id, callIdentity(ctx), "", ctx.signal);
      const stored = await svc.store.get(`${renditionPrefix(song.uuid, song.mediaVersion, req.quality)}/index.m3u8`);
      if (!stored) throw mediaNotFound();
      let keyUrl: string;
      if (caller.ticket) {
        // A native player fetches the key without headers: the ticket goes on.
        keyUrl = `${KEY_URL_PATH}?songId=${song.id}&ticket=${caller.ticket}`;
      } else {
        const expires = Math.floor(Date.now() / 1000) + svc.config.HLS_KEY_URL_TTL_SECONDS;
        const token = keyToken(svc.secrets.keyUrl, song.id, caller.listener, expires);
        keyUrl = `${KEY_URL_PATH}?songId=${song.id}&expires=${expires}&token=${token}`;
      }
      let segmentQuery = "";
      if (!song.public) {
        // Issue 23: a song that is not public has no segment URL that works without this playlist's signature.
        const expires = Math.floor(Date.now() / 1000) + svc.config.HLS_KEY_URL_TTL_SECONDS;
        const sig = segmentToken(svc.secrets.keyUrl, song.uuid, song.mediaVersion, req.quality, expires);
        segmentQuery = `?expires=${expires}&sig=${sig}`;
      }
      const text = listenerPlaylist(new TextDecoder().decode(stored.body), song, req.quality, keyUrl, segmentQuery);
      ctx.responseHeader.set("cache-control", "private, no-store");
      return { body: { contentType: M3U8, data: new TextEncoder().encode(text) } };
    },

    async getMediaSegment(req, ctx) {
      const song = await callEm(ctx).findOne(Song, {
        uuid: req.songUuid.toLowerCase(),
        status: "VERIFIED",
        mediaVersion: req.version,
      });
      if (!song) throw mediaNotFound();
      const signed =
        song.public ||
        checkSegmentToken(svc.secrets.keyUrl, {
          uuid: song.uuid,
          version: song.mediaVersion,
          quality: req.quality,
          expires: Number(req.expires),
          sig: req.sig,
        });
      if (!signed) throw mediaNotFound();
      const stored = await svc.store.get(`${renditionPrefix(song.uuid, song.mediaVersion, req.quality)}/${req.name}`);
      if (!stored) throw mediaNotFound();
      // The URL names the media version: its bytes never change; a song that is not public's are no cache's.
      ctx.responseHeader.set(
        "cache-control",
        song.public ? "public, max-age=31536000, immutable" : "private, no-store",
      );
      return { body: { contentType: "video/mp2t", data: stored.body } };
    },
  };
}
