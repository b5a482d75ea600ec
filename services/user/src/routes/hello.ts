import type { ServiceImpl } from "@connectrpc/connect";
import type { AuthService } from "@tt/proto/tt/user/v1/auth_service_pb";

/** Specification 000 §9: "User service API version 1.8.0". */
export const USER_SERVICE_VERSION = "1.8.0";

export function helloRoutes(): Partial<ServiceImpl<typeof AuthService>> {
  return {
    hello: () => ({ service: "user-service", version: USER_SERVICE_VERSION }),
  };
}
