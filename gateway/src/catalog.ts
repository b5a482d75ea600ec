// The backend services the gateway can route to when it runs alone (distributed mode). Registration data
// only: the routing table, OpenAPI document and Connect passthrough are all derived from these descriptors.
// Adding a service is one entry here plus `services.<name>` in the chart, which renders <NAME>_SERVICE_URL.
import type { DescService } from "@bufbuild/protobuf";
import { AccountService } from "@tt/proto/tt/user/v1/account_service_pb";
import { AdminService } from "@tt/proto/tt/user/v1/admin_service_pb";
import { AuthService } from "@tt/proto/tt/user/v1/auth_service_pb";
import { ContactService } from "@tt/proto/tt/user/v1/contact_service_pb";
import { ModerationService } from "@tt/proto/tt/user/v1/moderation_service_pb";
import { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import { ProviderTokenService } from "@tt/proto/tt/user/v1/provider_token_service_pb";

export const serviceCatalog = {
  user: [
    AuthService,
    AccountService,
    ContactService,
    ProfileService,
    ModerationService,
    ProviderTokenService,
    AdminService,
  ],
} as const satisfies Record<string, readonly DescService[]>;

export type CatalogName = keyof typeof serviceCatalog;
