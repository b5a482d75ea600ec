// Images of avatars, consumables and token bundles: checked by their bytes, kept in the object store under
// `merch/<kind>/<uuid>.<ext>` (served by the media handler under MEDIA_BASE_URL, or by the bucket).
import { randomUUID } from "node:crypto";
import { Code, ConnectError } from "@connectrpc/connect";
import type { UploadedFile } from "@tt/proto/tt/common/v1/upload_pb";
import type { MediaConfig } from "../../config.ts";
import { FsObjectStore, S3ObjectStore, type ObjectStore } from "./object-store.ts";

export type MediaKind = "avatars" | "consumables" | "bundles";

const TYPES = { jpeg: "image/jpeg", png: "image/png", gif: "image/gif", webp: "image/webp" } as const;
type ImageType = keyof typeof TYPES;

export function detectImageType(bytes: Uint8Array): ImageType | null {
  const starts = (sig: number[], at = 0) => sig.every((b, i) => bytes[at + i] === b);
  if (starts([0xff, 0xd8, 0xff])) return "jpeg";
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (starts([0x47, 0x49, 0x46, 0x38]) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) return "gif";
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return "webp";
  return null;
}

export interface StoredImage {
  key: string;
  contentType: string;
  size: number;
}

export interface Media {
  /** Checks and stores an uploaded image; 400 naming `field` when it is missing, too big or not an image. */
  store(file: UploadedFile | undefined, kind: MediaKind, field: string): Promise<StoredImage>;
  remove(key: string | null | undefined): Promise<void>;
  urlOf(key: string | null | undefined): string;
}

export function createObjectStore(config: MediaConfig): ObjectStore {
  if (config.MEDIA_S3_BUCKET && config.MEDIA_S3_ACCESS_KEY_ID && config.MEDIA_S3_SECRET_ACCESS_KEY) {
    return new S3ObjectStore({
      endpoint: config.MEDIA_S3_ENDPOINT,
      bucket: config.MEDIA_S3_BUCKET,
      region: config.MEDIA_S3_REGION,
      accessKeyId: config.MEDIA_S3_ACCESS_KEY_ID,
      secretAccessKey: config.MEDIA_S3_SECRET_ACCESS_KEY,
    });
  }
  return new FsObjectStore(config.MEDIA_DIR);
}

export function createMedia(config: MediaConfig, store: ObjectStore = createObjectStore(config)): Media {
  const base = config.MEDIA_BASE_URL.replace(/\/+$/, "");
  return {
    async store(file, kind, field) {
      const bytes = file?.content;
      if (!bytes || bytes.length === 0) throw new ConnectError(`${field} missing in request`, Code.InvalidArgument);
      if (bytes.length > config.MERCH_MAX_FILE_BYTES) {
        throw new ConnectError(`${field} must be at most ${config.MERCH_MAX_FILE_BYTES} bytes`, Code.InvalidArgument);
      }
      const type = detectImageType(bytes);
      if (!type) throw new ConnectError(`${field} must be a JPEG, PNG, WebP or GIF image`, Code.InvalidArgument);
      const key = `merch/${kind}/${randomUUID()}.${type === "jpeg" ? "jpg" : type}`;
      try {
        await store.put(key, bytes, TYPES[type]);
      } catch (err) {
        throw new ConnectError(
          "file storage is unavailable, try again later",
          Code.Unavailable,
          undefined,
          undefined,
          err,
        );
      }
      return { key, contentType: TYPES[type], size: bytes.length };
    },
    async remove(key) {
      if (key) await store.delete(key).catch(() => undefined);
    },
    urlOf(key) {
      return key ? `${base}/${key}` : "";
    },
  };
}
