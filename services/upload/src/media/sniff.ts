// The type of an uploaded file, decided from its first bytes (magic numbers), never from its name or the
// content type the client declared.
export type AudioFileType = "mp3" | "flac" | "ogg" | "wav" | "m4a" | "aac";

const ascii = (bytes: Uint8Array, at: number, text: string) =>
  bytes.length >= at + text.length && [...text].every((c, i) => bytes[at + i] === c.charCodeAt(0));

/** The container of an audio file, or undefined when the bytes are none of the supported ones. */
export function sniffAudio(bytes: Uint8Array): AudioFileType | undefined {
  if (ascii(bytes, 0, "ID3")) return "mp3";
  if (ascii(bytes, 0, "fLaC")) return "flac";
  if (ascii(bytes, 0, "OggS")) return "ogg";
  if (ascii(bytes, 0, "RIFF") && ascii(bytes, 8, "WAVE")) return "wav";
  // ISO base media (MP4/M4A): a box size, then "ftyp".
  if (ascii(bytes, 4, "ftyp")) return "m4a";
  if (bytes.length >= 4 && bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0) {
    const layer = (bytes[1]! >> 1) & 0x03;
    const version = (bytes[1]! >> 3) & 0x03;
    // ADTS: 12 sync bits, layer 00, and a valid sampling index (< 13).
    if ((bytes[1]! & 0xf6) === 0xf0 && ((bytes[2]! >> 2) & 0x0f) < 13) return "aac";
    // An MPEG audio frame: a known version and layer, a bitrate index that is neither free (0) nor bad (15),
    // a sampling rate index that is not reserved (3).
    const bitrate = bytes[2]! >> 4;
    const rate = (bytes[2]! >> 2) & 0x03;
    if (version !== 1 && layer !== 0 && bitrate !== 0 && bitrate !== 15 && rate !== 3) return "mp3";
  }
  return undefined;
}

export const AUDIO_MIME_TYPES: Record<AudioFileType, string> = {
  mp3: "audio/mpeg",
  flac: "audio/flac",
  ogg: "audio/ogg",
  wav: "audio/wav",
  m4a: "audio/mp4",
  aac: "audio/aac",
};
