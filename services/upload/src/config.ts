// The upload service's environment (validated once at start with the kit's parseEnv; nothing reads the
// environment afterwards). Every variable is documented in services/upload/README.md.
import { z } from "zod";
import { checkMediaStore, envFlag, mediaStoreShape, parseEnv, unsetIfEmpty } from "@tt/kit";

export const uploadConfigSchema = z
  .object({
    // all: serves the API and packages; api: serves only; worker: packages only (the chart's scalable worker).
    UPLOAD_ROLE: z.preprocess(unsetIfEmpty, z.enum(["all", "api", "worker"]).default("all")),
    // Seed the demo catalogue on first start (npm start turns it on; the chart and the tests leave it off).
    UPLOAD_DEMO_SONGS: envFlag(false),
    // Packaging jobs are spread over this many JetStream consumers (subjects tt.upload.job.package.<n>):
    // at most this many songs are packaged at once across every worker. Keep it the same everywhere.
    UPLOAD_PACKAGING_SHARDS: z.preprocess(unsetIfEmpty, z.coerce.number().int().min(1).max(64).default(4)),
    // Packagings one process runs at once (FFmpeg is CPU bound: about one per core).
    UPLOAD_WORKER_CONCURRENCY: z.preprocess(unsetIfEmpty, z.coerce.number().int().min(1).max(64).default(1)),
    // How long the job of a worker that died (killed, its node lost) waits before another worker takes it; a running
    // packaging tells the bus it is alive every third of this. NATS keeps what a shard's consumer was created with.
    UPLOAD_JOB_ACK_WAIT_MS: z.preprocess(
      unsetIfEmpty,
      z.coerce.number().int().min(1000).max(3_600_000).default(30_000),
    ),
    // Longest FFmpeg run for one song before it counts as failed.
    UPLOAD_PACKAGING_TIMEOUT_MS: z.preprocess(
      unsetIfEmpty,
      z.coerce
        .number()
        .int()
        .positive()
        .default(15 * 60_000),
    ),
    // Longest song accepted, in seconds.
    UPLOAD_MAX_DURATION_SECONDS: z.preprocess(
      unsetIfEmpty,
      z.coerce
        .number()
        .int()
        .positive()
        .default(3 * 3600),
    ),
    // How long a signed key URL in a served variant playlist stays valid.
    HLS_KEY_URL_TTL_SECONDS: z.preprocess(unsetIfEmpty, z.coerce.number().int().min(10).max(86_400).default(3600)),
    // A native HLS player's playback ticket (GetHlsPlaylistUrl's nativePlaylistUrl) lives for the song's duration
    // plus this, at most HLS_KEY_URL_TTL_SECONDS: long enough to switch quality late in the song, short enough
    // that a copied URL soon stops working. Logging out ends it at once.
    HLS_NATIVE_TICKET_GRACE_SECONDS: z.preprocess(
      unsetIfEmpty,
      z.coerce.number().int().min(10).max(86_400).default(300),
    ),
    // HMAC secret of the key URLs; default: one generated on first start and kept in the database (shared
    // by every replica).
    HLS_KEY_SIGNING_SECRET: z.preprocess(unsetIfEmpty, z.string().min(32).optional()),
    // HMAC secret of /upload/transcoder_sns reports; default: the database's generated one.
    TRANSCODER_CALLBACK_SECRET: z.preprocess(unsetIfEmpty, z.string().min(32).optional()),
    // The FFmpeg binary; default the one @ffmpeg-installer/linux-x64 ships.
    FFMPEG_PATH: z.preprocess(unsetIfEmpty, z.string().min(1).optional()),
    // Object store: the kit's MEDIA_ variables (the filesystem under MEDIA_DIR unless the three MEDIA_S3_ are set).
    ...mediaStoreShape,
  })
  .superRefine(checkMediaStore);

export type UploadConfig = z.output<typeof uploadConfigSchema>;

export function loadUploadConfig(env: Record<string, string | undefined>): UploadConfig {
  return parseEnv(uploadConfigSchema, env);
}
