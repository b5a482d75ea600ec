// Tags of an uploaded file, read with music-metadata. A file whose tags cannot be read has none: the song then
// waits for its owner to fill them in (MISSING_METADATA) rather than being refused.
import { parseBuffer } from "music-metadata";
import { AUDIO_MIME_TYPES, type AudioFileType } from "./sniff.ts";

export interface SongTags {
  trackName: string;
  artistName: string;
  albumName: string;
  genre: string;
  releaseYear: number;
  /** Seconds, 0 when unknown. */
  duration: number;
  isrc: string;
}

const clip = (s: string | undefined, max: number) => (s ?? "").trim().slice(0, max);

export async function readTags(bytes: Uint8Array, type: AudioFileType): Promise<SongTags> {
  try {
    const { common, format } = await parseBuffer(bytes, { mimeType: AUDIO_MIME_TYPES[type] }, { duration: true });
    const isrc = clip(common.isrc?.[0], 12);
    return {
      trackName: clip(common.title, 200),
      artistName: clip(common.artist ?? common.albumartist, 200),
      albumName: clip(common.album, 200),
      genre: clip(common.genre?.[0], 100),
      releaseYear: common.year && common.year > 0 && common.year <= 3000 ? common.year : 0,
      duration: format.duration && Number.isFinite(format.duration) && format.duration > 0 ? format.duration : 0,
      isrc: /^[A-Za-z0-9]{12}$/.test(isrc) ? isrc : "",
    };
  } catch {
    return { trackName: "", artistName: "", albumName: "", genre: "", releaseYear: 0, duration: 0, isrc: "" };
  }
}

/** The names (as the API spells them) of the fields a song needs before it can be packaged. */
export function missingFields(song: { trackName: string; artistName: string; duration: number }): string[] {
  const missing: string[] = [];
  if (!song.trackName.trim()) missing.push("trackName");
  if (!song.artistName.trim()) missing.push("artistName");
  if (!(song.duration > 0)) missing.push("duration");
  return missing;
}
