import { AccountTokenSchema } from "./account-token.entity.ts";
import { BotOwnerSchema } from "./bot-owner.entity.ts";
import { DiscordLinkSchema } from "./discord-link.entity.ts";
import { VoucherSchema } from "./voucher.entity.ts";

// Entities of the accounts area (admin sign-up and user detail, change-password-admin, magic links, Discord, bot accounts and tokens, voucher sign-up, vouchers, forgot/reset/set password), listed explicitly.
export const accountEntities = [AccountTokenSchema, BotOwnerSchema, DiscordLinkSchema, VoucherSchema];
