// Object keys and URLs of a song's media: the original upload, and the packaged renditions under a version
// that changes only when the media does, so segment URLs are immutable.
import { createHash } from "node:crypto";

export const sourceKey = (uuid: string) => `uploads/${uuid}/source`;
export const renditionPrefix = (uuid: string, version: string, quality: string) =>
  `songs/${uuid}/${version}/${quality}`;

/** A packaging's version: the same for every attempt on the same original, so a retry overwrites, never leaks. */
export function mediaVersionOf(uuid: string, sourceSha256: string): string {
  return createHash("sha256").update(`${uuid}:${sourceSha256}:hls-aes128-v1`).digest("hex").slice(0, 16);
}

export const masterPlaylistUrl = (id: number) => `/api/room-service/songs/${id}/hls-playlist`;
export const variantPlaylistUrl = (id: number, quality: string) => `/api/upload-service/songs/${id}/hls/${quality}`;
export const segmentUrl = (uuid: string, version: string, quality: string, name: string) =>
  `/api/upload-service/media/${uuid}/${version}/${quality}/${name}`;
export const KEY_URL_PATH = "/api/room-service/songs/hls/key";
