import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";

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
