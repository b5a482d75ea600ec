// The demo voucher of `npm start` (USER_DEMO_VOUCHER=true): a fixed, readable code the README names, granting
// uploadMusic, so a newcomer can upload without an admin. Made when no voucher has its code; a voucher is redeemed
// once and never deleted, so a restart neither duplicates it nor brings back one that was redeemed or revoked.
import { UniqueConstraintViolationException } from "@mikro-orm/core";
import type { EntityManager } from "@mikro-orm/postgresql";
import { DEMO_ACCOUNT } from "@tt/kit";
import type { Logger } from "pino";
import { Voucher } from "./voucher.entity.ts";

export const DEMO_VOUCHER_CODE = "DEMO-UPLOAD";

/** Makes the demo voucher unless its code exists; answers whether it made it. */
export async function seedDemoVoucher(em: EntityManager, logger: Logger): Promise<boolean> {
  try {
    const made = await em.fork().transactional(async (tem) => {
      if ((await tem.count(Voucher, { code: DEMO_VOUCHER_CODE })) > 0) return false;
      tem.create(Voucher, {
        code: DEMO_VOUCHER_CODE,
        status: "PENDING",
        capabilities: ["uploadMusic"],
        badges: [],
        note: "Demo voucher of npm start: lets one newcomer upload music (USER_DEMO_VOUCHER).",
        createdByUuid: DEMO_ACCOUNT,
        redeemedByUuid: null,
        expiresAt: null,
        redeemedAt: null,
        revokedAt: null,
      });
      return true;
    });
    if (made) logger.info({ code: DEMO_VOUCHER_CODE }, "demo voucher made: redeem it to upload music");
    return made;
  } catch (err) {
    // Another replica made it at the same moment: that one stands.
    if (err instanceof UniqueConstraintViolationException) return false;
    throw err;
  }
}
