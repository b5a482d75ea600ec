import type { ServiceImpl } from "@connectrpc/connect";
import type { AccountService } from "@tt/proto/tt/user/v1/account_service_pb";
import { serviceAccountView } from "../modules/accounts/account-message.ts";
import type { UserServiceContext } from "../user-context.ts";
import { accountAdminRoutes } from "./accounts-admin.ts";
import { accountBotRoutes } from "./accounts-bots.ts";
import { accountDiscordRoutes } from "./accounts-discord.ts";
import { accountMagicLinkRoutes } from "./accounts-magic-links.ts";
import { accountPasswordRoutes } from "./accounts-passwords.ts";
import { accountVoucherRoutes } from "./accounts-vouchers.ts";

/** RPCs of the accounts area: admin sign-up and user detail, change-password-admin, magic links, Discord, bot accounts and tokens, voucher sign-up, vouchers, forgot/reset/set password. */
export function accountRoutes(svc: UserServiceContext): Partial<ServiceImpl<typeof AccountService>> {
  const config = svc.areas.accounts;
  // Accounts are answered with their pictures, whose links the profile-data area's media settings decide.
  const view = serviceAccountView(svc.areas.media);
  return {
    ...accountAdminRoutes(svc, view),
    ...accountPasswordRoutes(svc, config, view),
    ...accountMagicLinkRoutes(svc, config, view),
    ...accountDiscordRoutes(svc, view),
    ...accountBotRoutes(svc, view),
    ...accountVoucherRoutes(svc, view),
  };
}
