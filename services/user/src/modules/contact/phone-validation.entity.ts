import { defineEntity, p } from "@mikro-orm/core";

/** The recents: the last lookup outcome per number, reused by send-code while fresh (lookups are paid). */
export const PhoneValidationSchema = defineEntity({
  name: "PhoneValidation",
  tableName: "phone_validation",
  properties: {
    phoneNumber: p.string().length(32).primary(),
    status: p.string().length(32),
    countryCode: p.string().length(2).nullable(),
    carrierType: p.string().length(64).nullable(),
    validatedAt: p.datetime().index(),
  },
});

export class PhoneValidation extends PhoneValidationSchema.class {}
PhoneValidationSchema.setClass(PhoneValidation);
