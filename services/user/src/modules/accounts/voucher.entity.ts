import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";

/**
 * A voucher: PENDING, then REDEEMED or REVOKED, never back. `code` is stored upper-cased so the unique index
 * also catches case variants. The admin and redeemer are plain uuids: the history must outlive the accounts.
 */
export const VoucherSchema = defineEntity({
  name: "Voucher",
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    code: p.string().length(64).unique(),
    status: p.string().length(16),
    capabilities: p.array().default([]),
    badges: p.array().default([]),
    note: p.text(),
    createdByUuid: p.uuid(),
    redeemedByUuid: p.uuid().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    expiresAt: p.datetime().nullable(),
    redeemedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
    // Two redemptions racing for one code: the second update fails instead of redeeming twice.
    version: p.integer().version(),
  },
});

export class Voucher extends VoucherSchema.class {}
VoucherSchema.setClass(Voucher);
