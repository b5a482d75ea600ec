// The accounts area's part of the environment, validated once when the routes are built.
import { z } from "zod";
import { parseEnv } from "@tt/kit";

// Empty strings come from templated manifests (`FOO: ""`); treat them as unset.
const unsetIfEmpty = (v: unknown) => (v === "" ? undefined : v);
const seconds = (fallback: number) => z.preprocess(unsetIfEmpty, z.coerce.number().int().positive().default(fallback));

export const accountConfigSchema = z.object({
  /** Where the web app lives: magic links and reset links point there. */
  WEB_BASE_URL: z.preprocess(
    unsetIfEmpty,
    z
      .url()
      .default("http://localhost:8080")
      .transform((url) => url.replace(/\/+$/, "")),
  ),
  PASSWORD_RESET_TTL_SECONDS: seconds(60 * 60),
  MAGIC_LINK_TTL_SECONDS: seconds(5 * 60),
  /** Minimum time between two reset e-mails to one address (per instance). */
  PASSWORD_RESET_INTERVAL_SECONDS: seconds(60),
});

export type AccountConfig = z.output<typeof accountConfigSchema>;

export function loadAccountConfig(env: Record<string, string | undefined>): AccountConfig {
  return parseEnv(accountConfigSchema, env);
}
