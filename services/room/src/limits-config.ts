// The room service's throttles (issue 23): guesses at private rooms' guest passwords (JoinRoom with a password,
// POST /rooms/list) and friend invitations. Counted in the service's own throttle table (the kit's throttle), so
// replicas share the counts; a refusal is 429 with retry-after. Documented in README.md.
import { z } from "zod";
import { parseEnv } from "@tt/kit";

const count = (fallback: number) => z.coerce.number().int().positive().default(fallback);

export const limitsConfigSchema = z.object({
  /** Password checks at one room (JoinRoom by callers without a role), over all callers, per window. */
  ROOM_PASSWORD_GUESSES_PER_ROOM: count(20),
  /** Password checks by one caller (user, bot or guest token), joins and POST /rooms/list together, per window. */
  ROOM_PASSWORD_GUESSES_PER_CALLER: count(10),
  /** Password checks from one address (as the gateway vouches for it), over all its callers, per window. */
  ROOM_PASSWORD_GUESSES_PER_ADDRESS: count(30),
  ROOM_PASSWORD_GUESS_WINDOW_SECONDS: count(10 * 60),
  /** Friend invitations one user may send per window. */
  ROOM_FRIEND_INVITATIONS_PER_WINDOW: count(30),
  ROOM_FRIEND_INVITATIONS_WINDOW_SECONDS: count(60 * 60),
});

export type LimitsConfig = z.output<typeof limitsConfigSchema>;

export function loadLimitsConfig(env: Record<string, string | undefined>): LimitsConfig {
  return parseEnv(limitsConfigSchema, env);
}
