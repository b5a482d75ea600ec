// One client for every service of package tt.user.v1, for suites that call RPCs of several areas in one flow
// (sign in, then ban, then read a profile) without naming which service each RPC belongs to.
import { createClient, type Client, type Transport } from "@connectrpc/connect";
import type { AccountService } from "@tt/proto/tt/user/v1/account_service_pb";
import type { AdminService } from "@tt/proto/tt/user/v1/admin_service_pb";
import type { AuthService } from "@tt/proto/tt/user/v1/auth_service_pb";
import type { ContactService } from "@tt/proto/tt/user/v1/contact_service_pb";
import type { ModerationService } from "@tt/proto/tt/user/v1/moderation_service_pb";
import type { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import type { ProviderTokenService } from "@tt/proto/tt/user/v1/provider_token_service_pb";
import { USER_SERVICES } from "../routes/index.ts";

export type UserClient = Client<typeof AuthService> &
  Client<typeof AccountService> &
  Client<typeof ContactService> &
  Client<typeof ProfileService> &
  Client<typeof ModerationService> &
  Client<typeof ProviderTokenService> &
  Client<typeof AdminService>;

/** A client of each tt.user.v1 service on `transport`, merged: method names are unique across the package. */
export function createUserClient(transport: Transport): UserClient {
  return Object.assign({}, ...USER_SERVICES.map((service) => createClient(service, transport))) as UserClient;
}
