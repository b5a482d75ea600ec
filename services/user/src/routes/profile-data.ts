import type { ServiceImpl } from "@connectrpc/connect";
import type { UserService } from "@tt/proto/tt/user/v1/user_service_pb";
import type { UserServiceContext } from "../user-context.ts";

/** RPCs of the profile-data area: profiles beyond GetProfile, user data, socials, capabilities list, badges, service profile lists, images. */
export function profileDataRoutes(_svc: UserServiceContext): Partial<ServiceImpl<typeof UserService>> {
  return {};
}
