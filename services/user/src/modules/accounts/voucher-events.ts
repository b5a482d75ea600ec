// tt.user.voucher.redeemed (tt.user.v1.VoucherRedeemed), through the outbox in the flush that changes the voucher.
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { EntityManager } from "@mikro-orm/postgresql";
import { publishEvent } from "@tt/kit";
import { VoucherRedeemedSchema } from "@tt/proto/tt/user/v1/events_pb";
import type { Voucher } from "./voucher.entity.ts";

export function enqueueVoucherRedeemed(em: EntityManager, voucher: Voucher): void {
  publishEvent(em, VoucherRedeemedSchema, {
    id: voucher.id,
    code: voucher.code,
    redeemedByUuid: voucher.redeemedByUuid ?? "",
    capabilities: [...voucher.capabilities],
    badges: [...voucher.badges],
    at: timestampFromDate(voucher.redeemedAt ?? new Date()),
  });
}
