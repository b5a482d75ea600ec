import type { ServiceImpl } from "@connectrpc/connect";
import type { ModerationService } from "@tt/proto/tt/user/v1/moderation_service_pb";
import { startBanSweeper } from "../modules/moderation/ban-sweeper.ts";
import type { UserServiceContext } from "../user-context.ts";
import { moderationBanRoutes } from "./moderation-bans.ts";
import { moderationCommentRoutes } from "./moderation-comments.ts";
import { moderationDeactivationRoutes } from "./moderation-deactivation.ts";
import { moderationRoleRoutes } from "./moderation-roles.ts";

/** Starts the service instance's ban sweeper (from create()); it stops with `svc.signal`. */
export function startModerationSweeper(svc: UserServiceContext): { stopped: Promise<void> } {
  return startBanSweeper({
    orm: svc.orm,
    logger: svc.logger,
    signal: svc.signal,
    intervalMs: svc.areas.moderation.BAN_SWEEP_INTERVAL_MS,
  });
}

/** RPCs of the moderation area: kick, bans, temporary bans, roles, capabilities, moderation comments, the deactivation flow. */
export function moderationRoutes(svc: UserServiceContext): Partial<ServiceImpl<typeof ModerationService>> {
  return {
    ...moderationBanRoutes(svc),
    ...moderationRoleRoutes(svc),
    ...moderationCommentRoutes(),
    ...moderationDeactivationRoutes(svc),
  };
}
