// The accounts area's part of the environment, validated once when the routes are built.
import { z } from "zod";
import { parseEnv, unsetIfEmpty } from "@tt/kit";

const positiveInt = (fallback: number) =>
  z.preprocess(unsetIfEmpty, z.coerce.number().int().positive().default(fallback));

export const accountConfigSchema = z.object({
  /** Where the web app lives: magic links and reset links point there. */
  WEB_BASE_URL: z.preprocess(
    unsetIfEmpty,
    z
      .url()
      .default("http://localhost:8080")
      .transform((url) => url.replace(/\/+$/, "")),
  ),
  PASSWORD_RESET_TTL_SECONDS: positiveInt(60 * 60),
  MAGIC_LINK_TTL_SECONDS: positiveInt(5 * 60),
  /** Minimum time between two reset e-mails to one address. */
  PASSWORD_RESET_INTERVAL_SECONDS: positiveInt(60),
  /** Reset requests one client address may make per hour. */
  PASSWORD_RESETS_PER_CLIENT_PER_HOUR: positiveInt(30),
  /** Tries of one reset code (right or wrong) per hour; a code is good for one reset. */
  PASSWORD_RESET_ATTEMPTS_PER_CODE: positiveInt(5),
  /** Reset tries (any code) one client address may make per hour. */
  PASSWORD_RESET_ATTEMPTS_PER_CLIENT_PER_HOUR: positiveInt(30),
});

export type AccountConfig = z.output<typeof accountConfigSchema>;

export function loadAccountConfig(env: Record<string, string | undefined>): AccountConfig {
  return parseEnv(accountConfigSchema, env);
}
