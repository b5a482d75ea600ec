import { defineEntity, p } from "@mikro-orm/core";
import { UserSchema } from "../users/user.entity.ts";

/**
 * The deactivation state of an account: a pending request (`requestedAt`), a deactivation by staff
 * (`deactivatedAt`), or both for a moment. No row means an active account with nothing pending; the row
 * goes away when staff cancel the request or reactivate the account.
 */
export const DeactivationSchema = defineEntity({
  name: "Deactivation",
  tableName: "deactivation",
  properties: {
    user: () => p.oneToOne(UserSchema).primary().owner().deleteRule("cascade"),
    reason: p.text().default(""),
    requestedAt: p.datetime().nullable().index(),
    deactivatedAt: p.datetime().nullable(),
    // A plain uuid: the record outlives the staff member's account.
    deactivatedBy: p.uuid().nullable(),
  },
});

export class Deactivation extends DeactivationSchema.class {}
DeactivationSchema.setClass(Deactivation);
