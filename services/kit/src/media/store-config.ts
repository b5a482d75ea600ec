// The object store's variables, one set for every service that keeps media (profile images, room posters,
// avatars and shop files, packaged songs): they share one MEDIA_DIR the media handler serves, or one bucket.
// A service spreads `mediaStoreShape` into its own schema, refines it with `checkMediaStore`, and opens the
// store with `createObjectStore`.
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { optionalEnvString, unsetIfEmpty } from "../config.ts";
import { FsObjectStore, S3ObjectStore, type ObjectStore } from "./object-store.ts";

/** `<repo>/.data/media`: next to the embedded PostgreSQL's data, ignored by git. */
export const DEFAULT_MEDIA_DIR = fileURLToPath(new URL("../../../../.data/media", import.meta.url));

const S3_VARIABLES = ["MEDIA_S3_BUCKET", "MEDIA_S3_ACCESS_KEY_ID", "MEDIA_S3_SECRET_ACCESS_KEY"] as const;

export const mediaStoreShape = {
  MEDIA_DIR: z.preprocess(unsetIfEmpty, z.string().default(DEFAULT_MEDIA_DIR)),
  MEDIA_BASE_URL: z.preprocess(unsetIfEmpty, z.string().default("/media")),
  MEDIA_S3_ENDPOINT: z.preprocess(unsetIfEmpty, z.url().default("https://s3.amazonaws.com")),
  MEDIA_S3_REGION: z.preprocess(unsetIfEmpty, z.string().default("us-east-1")),
  MEDIA_S3_BUCKET: optionalEnvString,
  MEDIA_S3_ACCESS_KEY_ID: optionalEnvString,
  MEDIA_S3_SECRET_ACCESS_KEY: optionalEnvString,
};

export type MediaStoreConfig = z.output<z.ZodObject<typeof mediaStoreShape>>;

/** A schema refinement: the three MEDIA_S3_ variables are set together or not at all. */
export function checkMediaStore(env: Partial<MediaStoreConfig>, ctx: z.RefinementCtx): void {
  const set = S3_VARIABLES.filter((name) => env[name] !== undefined);
  if (set.length > 0 && set.length < S3_VARIABLES.length) {
    for (const name of S3_VARIABLES.filter((n) => env[n] === undefined)) {
      ctx.addIssue({ code: "custom", path: [name], message: "is required when another MEDIA_S3_ variable is set" });
    }
  }
}

/** The public URL of a stored key under MEDIA_BASE_URL (a path like /media, or an absolute CDN URL). */
export function mediaUrl(baseUrl: string, key: string): string {
  return `${baseUrl.replace(/\/+$/, "")}/${key}`;
}

/** S3 when a bucket and its credentials are configured, the filesystem under MEDIA_DIR otherwise. */
export function createObjectStore(config: MediaStoreConfig): ObjectStore {
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
