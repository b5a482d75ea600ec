// The backend services the gateway can route to when it runs alone (distributed mode). Registration data
// only: the routing table, OpenAPI document and Connect passthrough are all derived from these descriptors.
// Adding a service is one entry here plus `services.<name>` in the chart, which renders <NAME>_SERVICE_URL.
import type { DescService } from "@bufbuild/protobuf";
import { UserService } from "@tt/proto/tt/user/v1/user_service_pb";

export const serviceCatalog = {
  user: [UserService],
} as const satisfies Record<string, readonly DescService[]>;

export type CatalogName = keyof typeof serviceCatalog;
