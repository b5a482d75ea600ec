// What the contact routes share: their configuration, id checks and the messages the spec documents.
import type { ContactConfig } from "../modules/contact/contact-config.ts";

export const EMAIL_NOT_FOUND = "email not found";
export const INCORRECT_EMAIL_CODE = "email verification failed, incorrect code";
export const EMAIL_ALREADY_VERIFIED = "email already verified";
export const MIN_INTERVAL_NOT_ELAPSED = "minimum time since last send not elapsed";
export const PRIMARY_EMAIL_NOT_DELETABLE = "the primary email can not be deleted";
export const TOO_MANY_ATTEMPTS = "too many attempts, ask for a new code";
export const INVALID_EMAIL_TYPE = "type must be one of personal, work, payment";
export const INVALID_PHONE_NUMBER = "Phone number is invalid. Only real, non-VoIP mobile numbers are allowed.";
export const UNREADABLE_PHONE_NUMBER = "phone number must be in E.164 form, e.g. +14155550123";
export const PHONE_VALIDATION_UNAVAILABLE = "phone number validation failed, try again later";
export const CODE_NOT_SENT = "the code could not be sent, try again later";
export const INCORRECT_MOBILE_CODE = "incorrect or expired code";
export const RESEND_TOO_SOON = "a code was sent recently, wait before asking for another";
export const PHONE_NUMBER_NOT_FOUND = "phone number not found";
export const PHONE_NUMBER_EXISTS = "phone number already recorded";
export const UNKNOWN_ACCOUNT = "userUuid must be the uuid of an existing account";
export const DEV_OUTBOX_OFF = "the dev outbox is off: real e-mail and SMS providers are configured";

export interface ContactDeps {
  config: ContactConfig;
}
