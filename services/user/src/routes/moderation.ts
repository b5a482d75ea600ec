import type { ServiceImpl } from "@connectrpc/connect";
import type { UserService } from "@tt/proto/tt/user/v1/user_service_pb";
import type { UserServiceContext } from "../user-context.ts";

/** RPCs of the moderation area: kick, bans, temporary bans, roles, capabilities, moderation comments, the deactivation flow. */
export function moderationRoutes(_svc: UserServiceContext): Partial<ServiceImpl<typeof UserService>> {
  return {};
}
