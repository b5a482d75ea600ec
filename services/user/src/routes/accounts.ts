import type { ServiceImpl } from "@connectrpc/connect";
import type { UserService } from "@tt/proto/tt/user/v1/user_service_pb";
import { loadAccountConfig } from "../modules/accounts/account-config.ts";
import type { UserServiceContext } from "../user-context.ts";
import { accountAdminRoutes } from "./accounts-admin.ts";
import { accountBotRoutes } from "./accounts-bots.ts";
import { accountDiscordRoutes } from "./accounts-discord.ts";
import { accountMagicLinkRoutes } from "./accounts-magic-links.ts";
import { accountPasswordRoutes } from "./accounts-passwords.ts";
import { accountVoucherRoutes } from "./accounts-vouchers.ts";

/** RPCs of the accounts area: admin sign-up and user detail, change-password-admin, magic links, Discord, bot accounts and tokens, voucher sign-up, vouchers, forgot/reset/set password. */
export function accountRoutes(svc: UserServiceContext): Partial<ServiceImpl<typeof UserService>> {
  // Validated when the service is created: a bad value stops the start, naming the variable.
  const config = loadAccountConfig(svc.env);
  return {
    ...accountAdminRoutes(svc),
    ...accountPasswordRoutes(svc, config),
    ...accountMagicLinkRoutes(svc, config),
    ...accountDiscordRoutes(svc),
    ...accountBotRoutes(svc),
    ...accountVoucherRoutes(svc),
  };
}
