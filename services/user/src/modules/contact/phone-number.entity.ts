import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";

/** A phone number that signed in by SMS code, or one staff recorded or whitelisted. One row per number. */
export const PhoneNumberSchema = defineEntity({
  name: "PhoneNumber",
  tableName: "phone_number",
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    /** E.164. */
    phoneNumber: p.string().length(16).unique(),
    userId: p.uuid().nullable().index(),
    whitelisted: p.boolean().default(false),
    validationStatus: p.string().length(32).nullable(),
    countryCode: p.string().length(2).nullable(),
    note: p.text().nullable(),
    verifiedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});

export class PhoneNumber extends PhoneNumberSchema.class {}
PhoneNumberSchema.setClass(PhoneNumber);
