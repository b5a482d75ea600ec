import type { ServiceImpl } from "@connectrpc/connect";
import type { UserService } from "@tt/proto/tt/user/v1/user_service_pb";
import { loadAccountConfig, type AccountConfig } from "../modules/accounts/account-config.ts";
import { serviceAccountView } from "../modules/accounts/account-message.ts";
import type { UserServiceContext } from "../user-context.ts";
import { accountAdminRoutes } from "./accounts-admin.ts";
import { accountBotRoutes } from "./accounts-bots.ts";
import { accountDiscordRoutes } from "./accounts-discord.ts";
import { accountMagicLinkRoutes } from "./accounts-magic-links.ts";
import { accountPasswordRoutes } from "./accounts-passwords.ts";
import { accountVoucherRoutes } from "./accounts-vouchers.ts";

/** RPCs of the accounts area: admin sign-up and user detail, change-password-admin, magic links, Discord, bot accounts and tokens, voucher sign-up, vouchers, forgot/reset/set password. */
export function accountRoutes(svc: UserServiceContext): Partial<ServiceImpl<typeof UserService>> {
  // Read on first use: building the routes must not touch the context (completeness.test.ts builds them
  // with an empty one). parseEnv still names a bad variable.
  let config: AccountConfig | undefined;
  const settings = () => (config ??= loadAccountConfig(svc.env));
  // Accounts are answered with their pictures, whose links the profile-data area's media settings decide.
  const view = serviceAccountView(svc.env);
  return {
    ...accountAdminRoutes(svc, view),
    ...accountPasswordRoutes(svc, settings, view),
    ...accountMagicLinkRoutes(svc, settings, view),
    ...accountDiscordRoutes(svc, view),
    ...accountBotRoutes(svc, view),
    ...accountVoucherRoutes(svc, view),
  };
}
