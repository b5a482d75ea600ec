import type { ServiceImpl } from "@connectrpc/connect";
import type { UserService } from "@tt/proto/tt/user/v1/user_service_pb";
import type { UserServiceContext } from "../user-context.ts";
import { accountRoutes } from "./accounts.ts";
import { adminRoutes } from "./admin.ts";
import { authRoutes } from "./auth.ts";
import { contactRoutes } from "./contact.ts";
import { helloRoutes } from "./hello.ts";
import { keyRoutes } from "./keys.ts";
import { moderationRoutes } from "./moderation.ts";
import { passwordRoutes } from "./passwords.ts";
import { profileDataRoutes } from "./profile-data.ts";
import { providerTokenRoutes } from "./provider-tokens.ts";

/** Every implemented RPC of tt.user.v1.UserService; the rest answer Unimplemented. */
export function userServiceImpl(svc: UserServiceContext): Partial<ServiceImpl<typeof UserService>> {
  return {
    ...helloRoutes(),
    ...authRoutes(svc),
    ...keyRoutes(svc),
    ...passwordRoutes(svc),
    ...adminRoutes(),
    ...accountRoutes(svc),
    ...contactRoutes(svc),
    ...profileDataRoutes(svc),
    ...moderationRoutes(svc),
    ...providerTokenRoutes(svc),
  };
}
