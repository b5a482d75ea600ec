import type { ServiceImpl } from "@connectrpc/connect";
import type { UserService } from "@tt/proto/tt/user/v1/user_service_pb";
import { parseEnv } from "@tt/kit";
import { z } from "zod";
import { DEFAULT_BAN_SWEEP_INTERVAL_MS, startBanSweeper } from "../modules/moderation/ban-sweeper.ts";
import type { UserServiceContext } from "../user-context.ts";
import { moderationBanRoutes } from "./moderation-bans.ts";
import { moderationCommentRoutes } from "./moderation-comments.ts";
import { moderationDeactivationRoutes } from "./moderation-deactivation.ts";
import { moderationRoleRoutes } from "./moderation-roles.ts";

const moderationEnvSchema = z.object({
  /** How often ended temporary bans are removed and announced (tt.user.user.unbanned). */
  BAN_SWEEP_INTERVAL_MS: z.coerce.number().int().min(10).max(86_400_000).default(DEFAULT_BAN_SWEEP_INTERVAL_MS),
});

const sweepers = new WeakMap<UserServiceContext, { stopped: Promise<void> }>();

/**
 * Starts the service instance's ban sweeper once (later calls return the running one); it stops with
 * `svc.signal`. Meant for create(), which also validates BAN_SWEEP_INTERVAL_MS at start; TemporaryBanUser
 * calls it too, so a host that does not still sweeps once a temporary ban exists.
 */
export function startModerationSweeper(svc: UserServiceContext): { stopped: Promise<void> } {
  let sweeper = sweepers.get(svc);
  if (!sweeper) {
    const env = parseEnv(moderationEnvSchema, svc.env);
    sweeper = startBanSweeper({
      orm: svc.orm,
      logger: svc.logger,
      signal: svc.signal,
      intervalMs: env.BAN_SWEEP_INTERVAL_MS,
    });
    sweepers.set(svc, sweeper);
  }
  return sweeper;
}

/** RPCs of the moderation area: kick, bans, temporary bans, roles, capabilities, moderation comments, the deactivation flow. */
export function moderationRoutes(svc: UserServiceContext): Partial<ServiceImpl<typeof UserService>> {
  return {
    ...moderationBanRoutes(svc, () => startModerationSweeper(svc)),
    ...moderationRoleRoutes(svc),
    ...moderationCommentRoutes(),
    ...moderationDeactivationRoutes(svc),
  };
}
