// The room service's contact book asks which normalized e-mails and phone numbers belong to accounts (only
// verified ones: an unverified address proves nothing about who owns it). Service tokens only (the access option).
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import type { ContactService } from "@tt/proto/tt/user/v1/contact_service_pb";
import { Email } from "../modules/contact/email.entity.ts";
import { PhoneNumber } from "../modules/contact/phone-number.entity.ts";
import { callEm } from "./call.ts";

/** Values per kind in one call. */
export const MAX_CONTACT_MATCH_VALUES = 1000;

export function contactMatchRoutes(): Pick<ServiceImpl<typeof ContactService>, "matchContacts"> {
  return {
    async matchContacts(req, ctx) {
      for (const [field, values] of [
        ["emails", req.emails],
        ["phoneNumbers", req.phoneNumbers],
      ] as const) {
        if (values.length > MAX_CONTACT_MATCH_VALUES) {
          throw new ConnectError(
            `${field} must hold at most ${MAX_CONTACT_MATCH_VALUES} entries`,
            Code.InvalidArgument,
          );
        }
      }
      const em = callEm(ctx);
      const emails = [...new Set(req.emails.map((e) => e.trim().toLowerCase()).filter(Boolean))];
      const phones = [...new Set(req.phoneNumbers.filter(Boolean))];
      const matches: { value: string; userUuid: string }[] = [];
      if (emails.length > 0) {
        const rows = await em.find(Email, { email: { $in: emails }, status: "VERIFIED" });
        for (const row of rows) matches.push({ value: row.email, userUuid: row.userId });
      }
      if (phones.length > 0) {
        const rows = await em.find(PhoneNumber, {
          phoneNumber: { $in: phones },
          userId: { $ne: null },
          verifiedAt: { $ne: null },
        });
        for (const row of rows) matches.push({ value: row.phoneNumber, userUuid: row.userId! });
      }
      return { matches };
    },
  };
}
