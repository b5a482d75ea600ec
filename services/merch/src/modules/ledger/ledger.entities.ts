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

/**
 * One ledger entry. `reference` makes an operation idempotent per account (a payment's reasonId, a purchase's
 * idempotency key, a hold's settlement): a second entry with the same reference cannot be written.
 */
export const TokenTransactionSchema = defineEntity({
  name: "TokenTransaction",
  tableName: "token_transaction",
  uniques: [{ properties: ["accountId", "reference"] }],
  indexes: [{ properties: ["accountId", "createdAt"] }],
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    accountId: p.uuid(),
    /** TokenTransactionType wire name. */
    type: p.string().length(16),
    amount: p.integer(),
    balanceAfter: p.integer(),
    holdId: p.uuid().nullable().index(),
    reason: p.string().length(200).nullable(),
    reference: p.string().length(300).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export class TokenTransaction extends TokenTransactionSchema.class {}
TokenTransactionSchema.setClass(TokenTransaction);

/** A consumable bought; the idempotency key and the request's hash answer a retry with the first answer. */
export const ConsumablePurchaseSchema = defineEntity({
  name: "ConsumablePurchase",
  tableName: "consumable_purchase",
  uniques: [{ properties: ["userUuid", "idempotencyKey"] }],
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    accountId: p.uuid().index(),
    userUuid: p.uuid(),
    consumableId: p.uuid(),
    tokenCost: p.integer(),
    roomUuid: p.uuid().nullable(),
    idempotencyKey: p.string().length(255).nullable(),
    requestHash: p.string().length(64),
    balanceAfter: p.integer(),
    accountUpdatedAt: p.datetime(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export class ConsumablePurchase extends ConsumablePurchaseSchema.class {}
ConsumablePurchaseSchema.setClass(ConsumablePurchase);
