// Room posters: checked by their bytes, re-encoded as WebP (at most 1024 px on the longer side, no metadata) and
// kept in the same object store as profile images (the kit's; MEDIA_DIR or S3 with the same variables).
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { z } from "zod";
import { FsObjectStore, parseEnv, S3ObjectStore, type ObjectStore } from "@tt/kit";

const optionalString = z.preprocess((v) => (v === "" ? undefined : v), z.string().optional());

/** `<repo>/.data/media`, as the user service's images. */
export const DEFAULT_MEDIA_DIR = fileURLToPath(new URL("../../../../../.data/media", import.meta.url));

const S3_VARIABLES = ["MEDIA_S3_BUCKET", "MEDIA_S3_ACCESS_KEY_ID", "MEDIA_S3_SECRET_ACCESS_KEY"] as const;

export const posterConfigSchema = z
  .object({
    MEDIA_DIR: z.preprocess((v) => (v === "" ? undefined : v), z.string().default(DEFAULT_MEDIA_DIR)),
    MEDIA_BASE_URL: z.preprocess((v) => (v === "" ? undefined : v), z.string().default("/media")),
    ROOM_POSTER_MAX_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(5 * 1024 * 1024),
    MEDIA_S3_ENDPOINT: z.preprocess((v) => (v === "" ? undefined : v), z.url().default("https://s3.amazonaws.com")),
    MEDIA_S3_REGION: z.preprocess((v) => (v === "" ? undefined : v), z.string().default("us-east-1")),
    MEDIA_S3_BUCKET: optionalString,
    MEDIA_S3_ACCESS_KEY_ID: optionalString,
    MEDIA_S3_SECRET_ACCESS_KEY: optionalString,
  })
  .superRefine((env, ctx) => {
    const set = S3_VARIABLES.filter((name) => env[name] !== undefined);
    if (set.length > 0 && set.length < S3_VARIABLES.length) {
      for (const name of S3_VARIABLES.filter((n) => env[n] === undefined)) {
        ctx.addIssue({ code: "custom", path: [name], message: "is required when another MEDIA_S3_ variable is set" });
      }
    }
  });

export type PosterConfig = z.output<typeof posterConfigSchema>;

export function loadPosterConfig(env: Record<string, string | undefined>): PosterConfig {
  return parseEnv(posterConfigSchema, env);
}

/** S3 when a bucket and its credentials are configured, the filesystem under MEDIA_DIR otherwise. */
export function createPosterStore(config: PosterConfig): ObjectStore {
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

/** The public URL of a stored key under MEDIA_BASE_URL. */
export function mediaUrl(baseUrl: string, key: string): string {
  return `${baseUrl.replace(/\/+$/, "")}/${key}`;
}

/** Where a poster is kept; a fresh id per upload, so a key is never rewritten. */
export function posterKey(posterId: string): string {
  return `posters/${posterId}.webp`;
}

/** Whether the bytes are a JPEG, PNG, GIF or WebP image (their signature, never the declared type). */
export function isImage(bytes: Uint8Array): boolean {
  const starts = (sig: number[], at = 0) => sig.every((b, i) => bytes[at + i] === b);
  return (
    starts([0xff, 0xd8, 0xff]) ||
    starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) ||
    (starts([0x47, 0x49, 0x46, 0x38]) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) ||
    (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8))
  );
}

/** The poster as WebP, upright, without metadata; throws when the image cannot be decoded. */
export async function encodePoster(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp(bytes, { limitInputPixels: 50_000_000, failOn: "error" })
      .rotate()
      .resize(1024, 1024, { fit: "inside", withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer(),
  );
}
