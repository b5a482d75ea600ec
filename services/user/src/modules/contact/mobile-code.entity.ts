import { defineEntity, p } from "@mikro-orm/core";

/** The one pending sign-in code of a number; a new code replaces it. Kept hashed. */
export const MobileCodeSchema = defineEntity({
  name: "MobileCode",
  tableName: "mobile_code",
  properties: {
    phoneNumber: p.string().length(16).primary(),
    codeHash: p.text().hidden(),
    expiresAt: p.datetime(),
    attempts: p.integer().default(0),
    sentAt: p.datetime(),
  },
});

export class MobileCode extends MobileCodeSchema.class {}
MobileCodeSchema.setClass(MobileCode);
