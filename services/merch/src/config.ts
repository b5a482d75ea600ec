// The merch service's environment, read once in create (docs/new-service.md §5); documented in README.md.
import { z } from "zod";
import { checkMediaStore, envFlag, mediaStoreShape, parseEnv, parseEnvParts } from "@tt/kit";

// The kit's object-store variables (the same MEDIA_DIR or bucket as every service's media) and the largest file.
const mediaSchema = z
  .object({
    ...mediaStoreShape,
    MERCH_MAX_FILE_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(5 * 1024 * 1024),
  })
  .superRefine(checkMediaStore);

const merchSchema = z.object({
  /** Default take of the season leaderboards. */
  MERCH_RANKING_PAGE_SIZE: z.coerce.number().int().min(1).max(100).default(20),
  /** The largest balance an account may reach (credits beyond it are refused). */
  MERCH_MAX_BALANCE: z.coerce.number().int().min(1).max(2_000_000_000).default(1_000_000_000),
  /** Stock the demo shop when it is empty (npm start turns it on; the chart and the tests leave it off). */
  MERCH_DEMO_STOCK: envFlag(false),
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
