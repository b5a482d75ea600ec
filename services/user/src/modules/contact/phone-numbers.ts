// Phone numbers and the lookup cache (the recents) that send-code and the admin validation share.
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { EntityManager } from "@mikro-orm/postgresql";
import {
  PhoneNumberSchema as PhoneNumberMessageSchema,
  PhoneValidationSchema as PhoneValidationMessageSchema,
  type PhoneNumber as PhoneNumberMessage,
  type PhoneValidation as PhoneValidationMessage,
} from "@tt/proto/tt/user/v1/user_pb";
import type { PhoneValidator } from "../../providers/index.ts";
import { PhoneNumber } from "./phone-number.entity.ts";
import { PhoneValidation } from "./phone-validation.entity.ts";

/** Like toPhoneNumberMessage, for rows an admin list loaded with only some `fields`. */
export function toPhoneNumberMessage(row: Partial<PhoneNumber>): PhoneNumberMessage {
  return create(PhoneNumberMessageSchema, {
    id: row.id ?? "",
    phoneNumber: row.phoneNumber ?? "",
    userUuid: row.userId ?? "",
    whitelisted: row.whitelisted ?? false,
    validationStatus: row.validationStatus ?? "",
    countryCode: row.countryCode ?? "",
    note: row.note ?? "",
    verifiedAt: row.verifiedAt ? timestampFromDate(row.verifiedAt) : undefined,
    createdAt: row.createdAt ? timestampFromDate(row.createdAt) : undefined,
    updatedAt: row.updatedAt ? timestampFromDate(row.updatedAt) : undefined,
  });
}

export function toPhoneValidationMessage(row: PhoneValidation): PhoneValidationMessage {
  return create(PhoneValidationMessageSchema, {
    phoneNumber: row.phoneNumber,
    status: row.status,
    countryCode: row.countryCode ?? "",
    carrierType: row.carrierType ?? "",
    validatedAt: timestampFromDate(row.validatedAt),
  });
}

/** The outcome for a number that cannot be read as E.164: INVALID, as the validators say, with no lookup. */
export function unreadablePhoneValidation(phone: string): PhoneValidationMessage {
  return create(PhoneValidationMessageSchema, {
    phoneNumber: phone,
    status: "INVALID",
    validatedAt: timestampFromDate(new Date()),
  });
}

/**
 * The outcome for an E.164 number: a fresh cached one, else a new lookup that replaces the cache entry
 * (written at once: a paid lookup is kept even when the call then fails). A VALIDATION_ERROR is recorded for
 * the recents but never reused, so the next call looks again.
 */
export async function validateThroughCache(
  em: EntityManager,
  validator: PhoneValidator,
  e164: string,
  cacheSeconds: number,
): Promise<PhoneValidation> {
  const fresh = new Date(Date.now() - cacheSeconds * 1000);
  const cached = await em.findOne(PhoneValidation, { phoneNumber: e164 });
  if (cached && cached.status !== "VALIDATION_ERROR" && cached.validatedAt > fresh) return cached;
  const result = await validator.validate(e164);
  // An upsert: two calls looking up the same number at once must not collide on the key.
  return em.upsert(PhoneValidation, {
    phoneNumber: e164,
    status: result.status,
    countryCode: result.countryCode?.toUpperCase().slice(0, 2) ?? null,
    carrierType: result.carrierType?.slice(0, 64) ?? null,
    validatedAt: new Date(),
  });
}

/** The record of a number, made (persisted with the next flush) when there is none. */
export async function phoneNumberRecord(em: EntityManager, e164: string): Promise<PhoneNumber> {
  const found = await em.findOne(PhoneNumber, { phoneNumber: e164 });
  if (found) return found;
  return em.create(PhoneNumber, {
    phoneNumber: e164,
    userId: null,
    whitelisted: false,
    validationStatus: null,
    countryCode: null,
    note: null,
    verifiedAt: null,
  });
}
