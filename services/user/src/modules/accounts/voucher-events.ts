// Events of the vouchers, through the outbox in the flush that changes the voucher.
import type { EntityManager } from "@mikro-orm/postgresql";
import { enqueue } from "@tt/kit";
import type { Voucher } from "./voucher.entity.ts";

export const VOUCHER_REDEEMED_SUBJECT = "tt.user.voucher.redeemed";

/** The payload of tt.user.voucher.redeemed: who got what (for audit and analytics). */
export interface VoucherRedeemedEvent {
  id: string;
  code: string;
  redeemedByUuid: string;
  capabilities: string[];
  badges: string[];
  at: string;
}

export function enqueueVoucherRedeemed(em: EntityManager, voucher: Voucher): void {
  const event: VoucherRedeemedEvent = {
    id: voucher.id,
    code: voucher.code,
    redeemedByUuid: voucher.redeemedByUuid ?? "",
    capabilities: [...voucher.capabilities],
    badges: [...voucher.badges],
    at: (voucher.redeemedAt ?? new Date()).toISOString(),
  };
  enqueue(em, VOUCHER_REDEEMED_SUBJECT, new TextEncoder().encode(JSON.stringify(event)));
}
