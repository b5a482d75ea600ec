import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";

/**
 * A user's token account (one per user). Its balance changes only in ledger.ts, in the database transaction
 * that appends the matching TokenTransaction rows, so it always equals the sum of their amounts; a check
 * constraint keeps it from ever going below zero.
 */
export const TokenAccountSchema = defineEntity({
  name: "TokenAccount",
  tableName: "token_account",
  checks: [{ name: "token_account_balance_check", expression: "balance >= 0" }],
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    userUuid: p.uuid().unique(),
    balance: p.integer().default(0),
    /** TokenAccountStatus wire name: active or disabled. */
    status: p.string().length(16).default("active"),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()),
  },
});
export class TokenAccount extends TokenAccountSchema.class {}
TokenAccountSchema.setClass(TokenAccount);
