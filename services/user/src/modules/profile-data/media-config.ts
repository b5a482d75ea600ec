// The image area's part of the environment (validated with the kit's parseEnv, like the service config).
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { parseEnv } from "@tt/kit";
import { FsObjectStore, S3ObjectStore, type ObjectStore } from "./object-store.ts";

const optionalString = z.preprocess((v) => (v === "" ? undefined : v), z.string().optional());

/** `<repo>/.data/media`: next to the embedded PostgreSQL's data, ignored by git. */
export const DEFAULT_MEDIA_DIR = fileURLToPath(new URL("../../../../../.data/media", import.meta.url));

const S3_VARIABLES = ["MEDIA_S3_BUCKET", "MEDIA_S3_ACCESS_KEY_ID", "MEDIA_S3_SECRET_ACCESS_KEY"] as const;

export const mediaConfigSchema = z
  .object({
    MEDIA_DIR: z.preprocess((v) => (v === "" ? undefined : v), z.string().default(DEFAULT_MEDIA_DIR)),
    MEDIA_BASE_URL: z.preprocess((v) => (v === "" ? undefined : v), z.string().default("/media")),
    MEDIA_MAX_IMAGE_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(10 * 1024 * 1024),
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

export type MediaConfig = z.output<typeof mediaConfigSchema>;

export function loadMediaConfig(env: Record<string, string | undefined>): MediaConfig {
  return parseEnv(mediaConfigSchema, env);
}

/** S3 when a bucket and its credentials are configured, the filesystem under MEDIA_DIR otherwise. */
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
