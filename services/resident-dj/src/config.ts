// The resident DJ's environment (validated once with the kit's parseEnv). `npm start` turns it on (RESIDENT_DJ
// defaults to true there); the services, the tests and the chart leave it off unless asked.
import { z } from "zod";
import { envFlag, kitConfigSchema, parseEnv, unsetIfEmpty } from "@tt/kit";

const text = (fallback: string) => z.preprocess(unsetIfEmpty, z.string().trim().min(1).max(80).default(fallback));

export const residentDjConfigSchema = kitConfigSchema
  .pick({
    // Its own process serves /healthz, /readyz and /metrics only (the chart's probes, distributed mode's readiness).
    PORT: true,
    HOST: true,
    METRICS_PORT: true,
    METRICS_HOST: true,
    HEADERS_TIMEOUT_MS: true,
    BODY_TIMEOUT_MS: true,
    IDLE_TIMEOUT_MS: true,
    MAX_CONNECTIONS: true,
    MAX_CONNECTIONS_PER_ADDRESS: true,
    SHUTDOWN_TIMEOUT_MS: true,
    LOG_LEVEL: true,
  })
  .extend({
    /** "true" runs the resident DJ (npm start's default); anything but "true" leaves it off. */
    RESIDENT_DJ: envFlag(false),
    /** The name of the room it keeps open (its slug is made from the name). */
    RESIDENT_DJ_ROOM: text("Lobby"),
    /** The bot's nickname: what `@<nickname> help` names. */
    RESIDENT_DJ_NICKNAME: z.preprocess(
      unsetIfEmpty,
      z
        .string()
        .trim()
        .min(1)
        .max(64)
        .regex(/^\S+$/, "must be one word (it is mentioned as @nickname)")
        .default("Resident"),
    ),
    /** A crate of the owner (by name, a public crate) whose songs it plays besides the demo songs. */
    RESIDENT_DJ_CRATE: z.preprocess(unsetIfEmpty, z.string().trim().max(300).optional()),
    /** The owner's account (the chart gives them from a Secret); without them a generated one kept in the state file. */
    RESIDENT_DJ_OWNER_EMAIL: z.preprocess(unsetIfEmpty, z.email().optional()),
    RESIDENT_DJ_OWNER_PASSWORD: z.preprocess(unsetIfEmpty, z.string().min(1).max(1024).optional()),
    /** Where the generated owner credentials and the bot's uuid are kept (all-in-one: <DATA_DIR>/resident-dj.json). */
    RESIDENT_DJ_STATE_FILE: z.preprocess(unsetIfEmpty, z.string().min(1).optional()),
    /** The platform's address (the gateway) for the resident DJ's own process (src/main.ts); the all-in-one uses its own. */
    RESIDENT_DJ_URL: z.preprocess(unsetIfEmpty, z.url().optional()),
  });

export type ResidentDjConfig = z.output<typeof residentDjConfigSchema>;

export function loadResidentDjConfig(env: Record<string, string | undefined>): ResidentDjConfig {
  return parseEnv(residentDjConfigSchema, env);
}
