// the people part's configuration (communities, events, social graph, contact book, notifications), one area of
// the room service's config (config.ts). Every secret may be left unset on one laptop: the contact key and the
// VAPID key pair are then generated once and kept in the database (people-secrets.ts); mobile pushes go to the
// development provider, which records instead of sending.
import { z } from "zod";
import { parseEnv } from "@tt/kit";

const flag = z
  .enum(["true", "false", "1", "0", ""])
  .default("false")
  .transform((v) => v === "true" || v === "1");

export const peopleConfigSchema = z
  .object({
    /** HMAC key of the contact book's hashes (at least 32 characters); generated and stored when unset. */
    CONTACT_HASH_KEY: z.string().min(32).optional(),
    /** development (records pushes, sends nothing) or fcm (Firebase Cloud Messaging HTTP v1). */
    MOBILE_PUSH_PROVIDER: z.enum(["development", "fcm"]).default("development"),
    /** The Firebase service account's key file (JSON text), required by fcm. */
    FCM_SERVICE_ACCOUNT_JSON: z.string().optional(),
    FCM_API_BASE_URL: z.url().default("https://fcm.googleapis.com"),
    /** Overrides the service account's token_uri. */
    FCM_TOKEN_URL: z.url().optional(),
    PUSH_TIMEOUT_MS: z.coerce.number().int().positive().max(60_000).default(10_000),
    /** The VAPID key pair (base64url, as web-push generate-vapid-keys prints it); generated and stored when unset. */
    VAPID_PUBLIC_KEY: z.string().min(80).max(100).optional(),
    VAPID_PRIVATE_KEY: z.string().min(40).max(50).optional(),
    VAPID_SUBJECT: z
      .string()
      .regex(/^(mailto:|https:\/\/)\S+$/, "must start with mailto: or https://")
      .default("mailto:admin@localhost"),
    /** Allows plain-http push endpoints (local push services and tests only). */
    WEB_PUSH_ALLOW_HTTP: flag,
    WEB_PUSH_TTL_SECONDS: z.coerce.number().int().min(0).max(2_419_200).default(86_400),
    /** How long a notification stays in its recipient's inbox. */
    NOTIFICATION_INBOX_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
    /** Least time between two DJ-fan notifications of one DJ. */
    DJ_FANS_NOTIFICATION_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(86_400).default(600),
  })
  .superRefine((c, ctx) => {
    if (c.MOBILE_PUSH_PROVIDER === "fcm" && !c.FCM_SERVICE_ACCOUNT_JSON) {
      ctx.addIssue({
        code: "custom",
        path: ["FCM_SERVICE_ACCOUNT_JSON"],
        message: "is required when MOBILE_PUSH_PROVIDER is fcm",
      });
    }
    if ((c.VAPID_PUBLIC_KEY === undefined) !== (c.VAPID_PRIVATE_KEY === undefined)) {
      ctx.addIssue({
        code: "custom",
        path: ["VAPID_PRIVATE_KEY"],
        message: "VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together",
      });
    }
  });

export type PeopleConfig = z.output<typeof peopleConfigSchema>;

export function loadPeopleConfig(env: Record<string, string | undefined>): PeopleConfig {
  return parseEnv(peopleConfigSchema, env);
}
