// The merch service's environment, read once in create (docs/new-service.md §5); documented in README.md.
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { parseEnv, parseEnvParts } from "@tt/kit";

const unsetIfEmpty = (v: unknown) => (v === "" ? undefined : v);
const optionalString = z.preprocess(unsetIfEmpty, z.string().optional());

/** `<repo>/.data/media`, the same default as the user service: one media root the gateway serves. */
export const DEFAULT_MEDIA_DIR = fileURLToPath(new URL("../../../.data/media", import.meta.url));

const mediaSchema = z.object({
  MEDIA_DIR: z.preprocess(unsetIfEmpty, z.string().default(DEFAULT_MEDIA_DIR)),
  MEDIA_BASE_URL: z.preprocess(unsetIfEmpty, z.string().default("/media")),
  MERCH_MAX_FILE_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(5 * 1024 * 1024),
  MEDIA_S3_ENDPOINT: z.preprocess(unsetIfEmpty, z.url().default("https://s3.amazonaws.com")),
  MEDIA_S3_REGION: z.preprocess(unsetIfEmpty, z.string().default("us-east-1")),
  MEDIA_S3_BUCKET: optionalString,
  MEDIA_S3_ACCESS_KEY_ID: optionalString,
  MEDIA_S3_SECRET_ACCESS_KEY: optionalString,
});

const merchSchema = z.object({
  /** Default take of the season leaderboards. */
  MERCH_RANKING_PAGE_SIZE: z.coerce.number().int().min(1).max(100).default(20),
  /** The largest balance an account may reach (credits beyond it are refused). */
  MERCH_MAX_BALANCE: z.coerce.number().int().min(1).max(2_000_000_000).default(1_000_000_000),
});

export type MediaConfig = z.output<typeof mediaSchema>;
export type MerchConfig = z.output<typeof merchSchema>;

export function loadMediaConfig(env: Record<string, string | undefined>): MediaConfig {
  return parseEnv(mediaSchema, env);
}

export function loadMerchConfig(env: Record<string, string | undefined>): MerchConfig {
  return parseEnv(merchSchema, env);
}

/** Every variable of every area at once: a bad deployment fails at start naming each bad variable. */
export function loadMerchServiceConfig(env: Record<string, string | undefined>) {
  return parseEnvParts({ merch: loadMerchConfig, media: loadMediaConfig }, env);
}
