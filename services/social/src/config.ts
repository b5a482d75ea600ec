// The social service's environment, read once in create (docs/new-service.md §5); documented in README.md.
// Each area (stage, chat, events, presence) declares its own schema here and is listed in loadSocialServiceConfig.
import { z } from "zod";
import { parseEnv, parseEnvParts } from "@tt/kit";

const stageSchema = z.object({
  /** How long a DJ without an open join stream keeps their seat before stepping down (ms). */
  SOCIAL_DJ_GRACE_MS: z.coerce.number().int().min(0).max(3_600_000).default(30_000),
  /**
   * Time to live of a room's song-timer lease (ms): the holder renews it every third of it; when the holder dies,
   * another instance with the room takes over within it.
   */
  SOCIAL_LEASE_TTL_MS: z.coerce.number().int().min(500).max(60_000).default(2_000),
  /**
   * How long a room's settings from the room service are used before it is asked again (ms); past it, a public room's
   * last known settings are still served while the room service cannot be reached (up to 10 minutes, issue 28).
   */
  SOCIAL_ROOM_CACHE_MS: z.coerce.number().int().min(50).max(60_000).default(10_000),
  /**
   * How often an instance compares the chat sequences of the rooms it has listeners in with the store's (ms): a
   * room whose events stayed behind the store for one such period (lost on the way, e.g. while NATS was down) has its
   * listeners told, and their clients load the history again (issue 28). One query per period for all the rooms.
   */
  SOCIAL_CHAT_CHECK_MS: z.coerce.number().int().min(50).max(60_000).default(1_000),
  /** How often the lease holder reconciles a room's presence (listener counts, dancefloor, DJs away) (ms). */
  SOCIAL_PRESENCE_INTERVAL_MS: z.coerce.number().int().min(50).max(60_000).default(1_000),
  /** The JetStream key-value bucket holding the rooms' stages (one key per room uuid). */
  SOCIAL_STAGE_BUCKET: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, "letters, digits, _ and - only")
    .max(64)
    .default("social-stage"),
});

export type StageConfig = z.output<typeof stageSchema>;

export function loadStageConfig(env: Record<string, string | undefined>): StageConfig {
  return parseEnv(stageSchema, env);
}

const chatSchema = z.object({
  /**
   * The web app's origins (comma-separated URLs, e.g. "https://tt.example"): a link to `<origin>/crates/<crateUuid>` in
   * a chat message becomes its playlist preview. Unset: WEB_PUBLIC_URL's origin; neither set, a crate path on any
   * origin counts (development, tests).
   */
  SOCIAL_WEB_ORIGINS: z
    .string()
    .default("")
    .transform((s, ctx) => {
      const origins: string[] = [];
      for (const part of s.split(",").map((o) => o.trim())) {
        if (part === "") continue;
        let url: URL;
        try {
          url = new URL(part);
        } catch {
          ctx.addIssue({ code: "custom", message: `"${part}" is not a URL` });
          return z.NEVER;
        }
        if (url.protocol !== "https:" && url.protocol !== "http:") {
          ctx.addIssue({ code: "custom", message: `"${part}" is not an http(s) URL` });
          return z.NEVER;
        }
        origins.push(url.origin);
      }
      return origins;
    }),
});

export type ChatConfig = z.output<typeof chatSchema>;

/** SOCIAL_WEB_ORIGINS, else the site's WEB_PUBLIC_URL (the all-in-one's, which the gateway also reads). */
export function loadChatConfig(env: Record<string, string | undefined>): ChatConfig {
  const origins = env.SOCIAL_WEB_ORIGINS?.trim() ? env.SOCIAL_WEB_ORIGINS : env.WEB_PUBLIC_URL;
  return parseEnv(chatSchema, { SOCIAL_WEB_ORIGINS: origins });
}

const count = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/**
 * Per-user limits of the chat (issue 23), each a number of calls in a fixed window, counted in the service's
 * throttle table (shared by replicas); over it a call is refused with 429 and retry-after. The defaults leave a
 * lively room alone (a message every half second for ten seconds) and stop floods.
 */
const chatLimitsSchema = z.object({
  SOCIAL_ROOM_MESSAGES_PER_WINDOW: count(20),
  SOCIAL_ROOM_MESSAGES_WINDOW_SECONDS: count(10),
  /** Direct messages to anyone. */
  SOCIAL_DIRECT_MESSAGES_PER_WINDOW: count(20),
  SOCIAL_DIRECT_MESSAGES_WINDOW_SECONDS: count(10),
  /** Direct messages to strangers (users who are not the sender's friends), counted as well as the above. */
  SOCIAL_STRANGER_MESSAGES_PER_WINDOW: count(30),
  SOCIAL_STRANGER_MESSAGES_WINDOW_SECONDS: count(10 * 60),
  /** Reactions added or removed. */
  SOCIAL_REACTIONS_PER_WINDOW: count(30),
  SOCIAL_REACTIONS_WINDOW_SECONDS: count(10),
  /** Reported messages. */
  SOCIAL_REPORTS_PER_WINDOW: count(10),
  SOCIAL_REPORTS_WINDOW_SECONDS: count(10 * 60),
});

export type ChatLimits = z.output<typeof chatLimitsSchema>;

export function loadChatLimits(env: Record<string, string | undefined>): ChatLimits {
  return parseEnv(chatLimitsSchema, env);
}

/** Every variable of every area at once: a bad deployment fails at start naming each bad variable. */
export function loadSocialServiceConfig(env: Record<string, string | undefined>) {
  return parseEnvParts({ stage: loadStageConfig, chat: loadChatConfig, chatLimits: loadChatLimits }, env);
}
