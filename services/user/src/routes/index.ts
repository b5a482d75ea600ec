import type { ConnectRouter } from "@connectrpc/connect";
import { AccountService } from "@tt/proto/tt/user/v1/account_service_pb";
import { AdminService } from "@tt/proto/tt/user/v1/admin_service_pb";
import { AuthService } from "@tt/proto/tt/user/v1/auth_service_pb";
import { ContactService } from "@tt/proto/tt/user/v1/contact_service_pb";
import { ModerationService } from "@tt/proto/tt/user/v1/moderation_service_pb";
import { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import { ProviderTokenService } from "@tt/proto/tt/user/v1/provider_token_service_pb";
import type { UserServiceContext } from "../user-context.ts";
import { accountRoutes } from "./accounts.ts";
import { adminRoutes } from "./admin.ts";
import { authRoutes } from "./auth.ts";
import { contactRoutes } from "./contact.ts";
import { moderationRoutes } from "./moderation.ts";
import { profileDataRoutes } from "./profile-data.ts";
import { providerTokenRoutes } from "./provider-tokens.ts";

/** The services of package tt.user.v1, one per area (one proto file and one routes file each). */
export const USER_SERVICES = [
  AuthService,
  AccountService,
  ContactService,
  ProfileService,
  ModerationService,
  ProviderTokenService,
  AdminService,
] as const;

/** Registers every service of the user service, each with its area's routes. */
export function registerUserRoutes(router: ConnectRouter, svc: UserServiceContext): void {
  router.service(AuthService, authRoutes(svc));
  router.service(AccountService, accountRoutes(svc));
  router.service(ContactService, contactRoutes(svc));
  router.service(ProfileService, profileDataRoutes(svc));
  router.service(ModerationService, moderationRoutes(svc));
  router.service(ProviderTokenService, providerTokenRoutes(svc));
  router.service(AdminService, adminRoutes());
}
