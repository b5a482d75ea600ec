// Tag edits (POST /metadata, PATCH /songs/{id}): only the owner; a song that was missing tags and now has them
// is queued for packaging; a VERIFIED song's catalogue entry is updated (tt.upload.song.published).
import { Code, ConnectError } from "@connectrpc/connect";
import type { EntityManager } from "@mikro-orm/postgresql";
import { publishEvent, type Identity } from "@tt/kit";
import { UploadedSongPublishedSchema } from "@tt/proto/tt/upload/v1/events_pb";
import { missingFields } from "../media/tags.ts";
import { enqueuePackaging } from "../packaging/jobs.ts";
import { transition, type SongStatusName } from "../modules/songs/song-states.ts";
import { publishedEvent } from "../modules/songs/song-view.ts";
import type { Song } from "../modules/songs/song.entity.ts";
import { EDIT_REFUSED, isOwner } from "./context.ts";

export interface SongEdit {
  trackName?: string;
  artistName?: string;
  albumName?: string;
  genre?: string;
  releaseYear?: number;
  duration?: number;
  explicit?: boolean;
  isrc?: string;
  public?: boolean;
}

const bad = (message: string) => new ConnectError(message, Code.InvalidArgument);

export async function editSong(
  em: EntityManager,
  song: Song,
  edit: SongEdit,
  who: Identity,
  o: { shards: number; maxDuration: number },
): Promise<Song> {
  if (!isOwner(song, who)) throw new ConnectError(EDIT_REFUSED, Code.PermissionDenied);
  for (const field of ["trackName", "artistName"] as const) {
    if (edit[field] !== undefined && !edit[field]!.trim()) throw bad(`${field} must not be empty`);
  }
  if (edit.duration !== undefined && !(edit.duration > 0 && edit.duration <= o.maxDuration)) {
    throw bad(`duration must be more than 0 and at most ${o.maxDuration} seconds`);
  }
  if (edit.trackName !== undefined) song.trackName = edit.trackName.trim();
  if (edit.artistName !== undefined) song.artistName = edit.artistName.trim();
  if (edit.albumName !== undefined) song.albumName = edit.albumName.trim();
  if (edit.genre !== undefined) song.genre = edit.genre.trim();
  if (edit.releaseYear !== undefined) song.releaseYear = edit.releaseYear;
  if (edit.duration !== undefined) song.duration = edit.duration;
  if (edit.explicit !== undefined) song.explicit = edit.explicit;
  if (edit.isrc !== undefined) song.isrc = edit.isrc.toUpperCase();
  if (edit.public !== undefined) song.public = edit.public;

  const status = song.status as SongStatusName;
  if (status === "MISSING_METADATA") {
    song.status = transition(status, missingFields(song).length > 0 ? "metadataIncomplete" : "metadataComplete");
    if (song.status === "UNVERIFIED") {
      song.progress = 0;
      enqueuePackaging(em, song.uuid, o.shards);
    }
  } else if (status === "VERIFIED") {
    publishEvent(em, UploadedSongPublishedSchema, publishedEvent(song));
  }
  await em.flush();
  return song;
}
