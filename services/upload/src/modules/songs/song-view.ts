// A song as the API answers it (tt.upload.v1.UploadedSong) and as the catalogue event carries it (published-song.ts).
import type { MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { UploadedSongPublishedSchema } from "@tt/proto/tt/upload/v1/events_pb";
import type { UploadedSongSchema } from "@tt/proto/tt/upload/v1/song_pb";
import { missingFields } from "../../media/tags.ts";
import { publishedSong, type PublishedSongFields } from "./published-song.ts";
import { masterPlaylistUrl } from "./song-keys.ts";
import type { Song } from "./song.entity.ts";

export function songView(song: Song): MessageInitShape<typeof UploadedSongSchema> & PublishedSongFields {
  const verified = song.status === "VERIFIED";
  const hls = verified ? masterPlaylistUrl(song.id) : "";
  return {
    songId: BigInt(song.id),
    uuid: song.uuid,
    ownerUuid: song.owner,
    trackName: song.trackName,
    artistName: song.artistName,
    albumName: song.albumName,
    genre: song.genre,
    releaseYear: song.releaseYear,
    duration: song.duration,
    explicit: song.explicit,
    isrc: song.isrc,
    status: song.status,
    progress: song.progress,
    public: song.public,
    demo: song.demo,
    musicProviders: { uploadService: String(song.id) },
    streamUrls: verified ? { uploadService: { hls, http: "" } } : {},
    hlsPlaylistUrl: hls,
    fileType: song.fileType,
    statusMessage: song.statusMessage,
    missingFields: song.status === "MISSING_METADATA" ? missingFields(song) : [],
    createdAt: timestampFromDate(song.createdAt),
    updatedAt: timestampFromDate(song.updatedAt),
  };
}

/** The catalogue event of a VERIFIED song (its media packaged, so its HLS playlist is served). */
export function publishedEvent(song: Song): MessageInitShape<typeof UploadedSongPublishedSchema> {
  return publishedSong(songView(song));
}
