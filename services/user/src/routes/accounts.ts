import type { ServiceImpl } from "@connectrpc/connect";
import type { UserService } from "@tt/proto/tt/user/v1/user_service_pb";
import type { UserServiceContext } from "../user-context.ts";

/** RPCs of the accounts area: admin sign-up and user detail, change-password-admin, magic links, Discord, bot accounts and tokens, voucher sign-up, vouchers, forgot/reset/set password. */
export function accountRoutes(_svc: UserServiceContext): Partial<ServiceImpl<typeof UserService>> {
  return {};
}
