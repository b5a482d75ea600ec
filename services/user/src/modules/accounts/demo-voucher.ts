// The demo voucher of `npm start` (USER_DEMO_VOUCHER=true): a fixed, readable code the README names, granting
// uploadMusic, so a newcomer can upload without an admin. Made when no voucher has its code; a voucher is redeemed
// once and never deleted, so a restart neither duplicates it nor brings back one that was redeemed or revoked.
import type { EntityManager } from "@mikro-orm/postgresql";
import { DEMO_ACCOUNT, seedOnce } from "@tt/kit";
import type { Logger } from "pino";
import { Voucher } from "./voucher.entity.ts";

export const DEMO_VOUCHER_CODE = "DEMO-UPLOAD";

/** Makes the demo voucher unless its code exists; answers whether it made it. */
export async function seedDemoVoucher(em: EntityManager, logger: Logger): Promise<boolean> {
  const made = await seedOnce(
    em,
    async (em) => (await em.count(Voucher, { code: DEMO_VOUCHER_CODE })) > 0,
    (em) => {
      em.create(Voucher, {
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
      return 1;
    },
  );
  if (made > 0) logger.info({ code: DEMO_VOUCHER_CODE }, "demo voucher made: redeem it to upload music");
  return made > 0;
}
