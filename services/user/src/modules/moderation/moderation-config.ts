// The moderation area's part of the environment.
import { z } from "zod";
import { parseEnv } from "@tt/kit";
import { DEFAULT_BAN_SWEEP_INTERVAL_MS } from "./ban-sweeper.ts";

export const moderationConfigSchema = z.object({
  /** How often ended temporary bans are removed and announced (tt.user.user.unbanned). */
  BAN_SWEEP_INTERVAL_MS: z.coerce.number().int().min(10).max(86_400_000).default(DEFAULT_BAN_SWEEP_INTERVAL_MS),
});

export type ModerationConfig = z.output<typeof moderationConfigSchema>;

export function loadModerationConfig(env: Record<string, string | undefined>): ModerationConfig {
  return parseEnv(moderationConfigSchema, env);
}
