// Images of avatars, consumables and token bundles: checked by their bytes, kept in the object store under
// `merch/<kind>/<uuid>.<ext>` (served by the media handler under MEDIA_BASE_URL, or by the bucket).
import { randomUUID } from "node:crypto";
import { Code, ConnectError } from "@connectrpc/connect";
import type { UploadedFile } from "@tt/proto/tt/common/v1/upload_pb";
import type { MediaConfig } from "../../config.ts";
import { detectImageType } from "@tt/image-type";
import { createObjectStore, mediaUrl, type ObjectStore } from "@tt/kit";

export type MediaKind = "avatars" | "consumables" | "bundles";

const TYPES = { jpeg: "image/jpeg", png: "image/png", gif: "image/gif", webp: "image/webp" } as const;

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

export function createMedia(config: MediaConfig, store: ObjectStore = createObjectStore(config)): Media {
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
      return key ? mediaUrl(config.MEDIA_BASE_URL, key) : "";
    },
  };
}
