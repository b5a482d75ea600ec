// The audit service's environment, read once in create (docs/new-service.md §5); documented in README.md.
import { z } from "zod";
import { parseEnv, parseEnvParts, unsetIfEmpty } from "@tt/kit";

const optionalName = z.preprocess(
  unsetIfEmpty,
  z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, "letters, digits, _ and - only")
    .max(64)
    .optional(),
);

const analyticsSchema = z.object({
  /** The subject token in the analytics stream (and its writer's name); default `audit-analytics`. */
  AUDIT_ANALYTICS_SUBJECT: optionalName,
  /** The most events one stream message (and so one INSERT) carries. */
  AUDIT_ANALYTICS_BATCH_SIZE: z.coerce.number().int().min(1).max(1000).default(250),
  /**
   * How long the AUDIT_ANALYTICS stream keeps a message (the writer has stored it in PostgreSQL long before);
   * 0: no limit. Default a week, so a writer that was down for days still finds what it missed.
   */
  AUDIT_ANALYTICS_STREAM_MAX_AGE_HOURS: z.coerce.number().int().min(0).max(87_600).default(168),
  /** The most the AUDIT_ANALYTICS stream holds; the oldest messages go first. 0: no limit. Default 1 GiB. */
  AUDIT_ANALYTICS_STREAM_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .max(Number.MAX_SAFE_INTEGER)
    .default(1 << 30),
});

const moderationSchema = z.object({
  /** Prefix of the durable consumers of the moderation events; default `audit-moderation`. */
  AUDIT_MODERATION_DURABLE: optionalName,
});

export type AnalyticsConfig = z.output<typeof analyticsSchema>;
export type ModerationConfig = z.output<typeof moderationSchema>;

export function loadAnalyticsConfig(env: Record<string, string | undefined>): AnalyticsConfig {
  return parseEnv(analyticsSchema, env);
}

export function loadModerationConfig(env: Record<string, string | undefined>): ModerationConfig {
  return parseEnv(moderationSchema, env);
}

/** Every variable of every area at once: a bad deployment fails at start naming each bad variable. */
export function loadAuditServiceConfig(env: Record<string, string | undefined>) {
  return parseEnvParts({ analytics: loadAnalyticsConfig, moderation: loadModerationConfig }, env);
}
