// The media files convention, shared by the service that writes them (the user service's filesystem object
// store) and the processes that serve them (the all-in-one server, the gateway): which keys exist, where a
// key's file is under the root, and the content type it is served with.
import { join, relative, resolve, sep } from "node:path";

export class MediaKeyError extends Error {
  override name = "MediaKeyError";
}

// Keys are made by the service (`images/<uuid>/<size>.webp`); anything else is a bug, refused before it can
// name a path outside the store or an unexpected S3 URL.
const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

export function assertValidMediaKey(key: string): void {
  if (key.length > 512 || !KEY_PATTERN.test(key) || key.split("/").some((part) => part === "." || part === "..")) {
    throw new MediaKeyError(`invalid object key: ${JSON.stringify(key)}`);
  }
}

const CONTENT_TYPES: Record<string, string> = {
  webp: "image/webp",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  // Only the demo stock's drawings (services write them; uploads are sniffed and never SVG).
  svg: "image/svg+xml",
  m3u8: "application/vnd.apple.mpegurl",
  ts: "video/mp2t",
};

/** The content type a stored file is served with, from its key's extension. */
export function mediaContentType(key: string): string {
  const ext = key.slice(key.lastIndexOf(".") + 1).toLowerCase();
  return CONTENT_TYPES[ext] ?? "application/octet-stream";
}

/** The file of a key under `root` (resolved); never outside it. */
export function mediaFilePath(root: string, key: string): string {
  assertValidMediaKey(key);
  const base = resolve(root);
  const path = resolve(join(base, key));
  const rel = relative(base, path);
  if (rel === "" || rel.startsWith("..") || rel.includes(`..${sep}`)) {
    throw new MediaKeyError(`invalid object key: ${JSON.stringify(key)}`);
  }
  return path;
}
