// What the catalogue event (tt.upload.v1.UploadedSongPublished) carries of a VERIFIED song, from the song as the API
// answers it (tt.upload.v1.UploadedSong). The upload service publishes it; the playlist service, asked for an upload
// the event has not brought yet (issue 23), takes in GetSongById's answer through this same mapping, so both sides
// agree on every field. Pure, with type-only imports: exported as `@tt/upload-service/published-song`.
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { UploadedSongPublishedSchema } from "@tt/proto/tt/upload/v1/events_pb";
import type { UploadedSong } from "@tt/proto/tt/upload/v1/song_pb";

/** The fields of a song, as the API answers it, that its catalogue event carries. */
export type PublishedSongFields = Pick<
  UploadedSong,
  | "songId"
  | "uuid"
  | "ownerUuid"
  | "trackName"
  | "artistName"
  | "albumName"
  | "genre"
  | "releaseYear"
  | "duration"
  | "explicit"
  | "isrc"
  | "hlsPlaylistUrl"
  | "public"
  | "demo"
>;

export function publishedSong(song: PublishedSongFields): MessageInitShape<typeof UploadedSongPublishedSchema> {
  return {
    songUuid: song.uuid,
    songId: song.songId,
    ownerUuid: song.ownerUuid,
    trackName: song.trackName,
    artistName: song.artistName,
    albumName: song.albumName,
    genre: song.genre,
    releaseYear: song.releaseYear,
    duration: song.duration,
    explicit: song.explicit,
    isrc: song.isrc,
    hlsPlaylistUrl: song.hlsPlaylistUrl,
    thumbnailUrl: "",
    public: song.public,
    demo: song.demo,
  };
}
