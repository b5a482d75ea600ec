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

/** RPCs of the moderation area: kick, bans, temporary bans, roles, capabilities, moderation comments, the deactivation flow. */
export function moderationRoutes(svc: UserServiceContext): Partial<ServiceImpl<typeof UserService>> {
  const env = parseEnv(moderationEnvSchema, svc.env);
  // Started with the routes (once per service instance, in create()) and stopped by the service's signal;
  // a temporary ban also ends at read time, so a late sweep only delays the unbanned event.
  startBanSweeper({ orm: svc.orm, logger: svc.logger, signal: svc.signal, intervalMs: env.BAN_SWEEP_INTERVAL_MS });
  return {
    ...moderationBanRoutes(svc),
    ...moderationRoleRoutes(svc),
    ...moderationCommentRoutes(),
    ...moderationDeactivationRoutes(svc),
  };
}
