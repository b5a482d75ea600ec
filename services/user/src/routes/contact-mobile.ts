// Phone sign-in: text a code after validating the number, then trade the code for a session (creating the
// account on first use).
import { randomBytes, randomUUID } from "node:crypto";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import { UniqueConstraintViolationException } from "@mikro-orm/core";
import type { ContactService } from "@tt/proto/tt/user/v1/contact_service_pb";
import { normalizeE164 } from "../providers/index.ts";
import { serviceAccountView } from "../modules/accounts/account-message.ts";
import { codeMatches, hashCode, newCode } from "../modules/contact/codes.ts";
import type { ContactConfig } from "../modules/contact/contact-config.ts";
import { PHONE_ACCOUNT_EMAIL_DOMAIN } from "../modules/contact/emails.ts";
import { MobileCode } from "../modules/contact/mobile-code.entity.ts";
import { PhoneNumber } from "../modules/contact/phone-number.entity.ts";
import { PhoneValidation } from "../modules/contact/phone-validation.entity.ts";
import { phoneNumberRecord, validateThroughCache } from "../modules/contact/phone-numbers.ts";
import { clientAddress, enforceThrottles, tooMany, type ThrottleCheck } from "@tt/kit";
import { startSession, toAccessTokenMessage } from "../modules/sessions/start-session.ts";
import { createAccount } from "../modules/users/create-account.ts";
import { User } from "../modules/users/user.entity.ts";
import type { UserServiceContext } from "../user-context.ts";
import { callEm, callUserAgent } from "./call.ts";
import {
  CODE_NOT_SENT,
  INCORRECT_MOBILE_CODE,
  INVALID_PHONE_NUMBER,
  PHONE_VALIDATION_UNAVAILABLE,
  RESEND_TOO_SOON,
  TOO_MANY_ATTEMPTS,
  UNREADABLE_PHONE_NUMBER,
} from "./contact-shared.ts";

/**
 * Phone accounts have no password: this marker is no argon2 hash, so no password ever matches it (verifyPassword
 * counts a malformed hash as a mismatch) until the account sets one.
 */
export const NO_PASSWORD_HASH = "!no-password";

export function readE164(phone: string): string {
  const e164 = normalizeE164(phone);
  if (e164 === undefined) throw new ConnectError(UNREADABLE_PHONE_NUMBER, Code.InvalidArgument);
  return e164;
}

export function mobileRoutes(
  svc: UserServiceContext,
  config: ContactConfig,
): Partial<ServiceImpl<typeof ContactService>> {
  const hour = 3600;
  const view = serviceAccountView(svc.areas.media);
  return {
    async sendMobileCode(req, ctx) {
      const sendPerNumber = {
        action: "mobile-send",
        limit: config.MOBILE_CODES_PER_NUMBER_PER_HOUR,
        windowSeconds: hour,
      };
      const sendPerAddress = { action: "mobile-send", limit: config.MOBILE_CODES_PER_IP_PER_HOUR, windowSeconds: hour };
      const e164 = readE164(req.phoneNumber);
      const em = callEm(ctx);
      const record = await em.findOne(PhoneNumber, { phoneNumber: e164 });
      const whitelisted = record?.whitelisted === true;
      if (!whitelisted) {
        const checks: ThrottleCheck[] = [{ rule: sendPerNumber, subject: `number:${e164}` }];
        const address = clientAddress(ctx);
        if (address !== undefined) checks.push({ rule: sendPerAddress, subject: `ip:${address}` });
        await enforceThrottles(em, checks);
        const validation = await validateThroughCache(
          em,
          svc.providers.phoneValidation,
          e164,
          config.PHONE_VALIDATION_CACHE_SECONDS,
        );
        if (validation.status === "VALIDATION_ERROR") {
          throw new ConnectError(PHONE_VALIDATION_UNAVAILABLE, Code.Unavailable);
        }
        const blockedType =
          validation.carrierType !== null &&
          validation.carrierType !== undefined &&
          config.PHONE_BLOCKED_CARRIER_TYPES.includes(validation.carrierType);
        const blockedCountry =
          config.PHONE_ALLOWED_COUNTRY_CODES.length > 0 &&
          (validation.countryCode === null ||
            validation.countryCode === undefined ||
            !config.PHONE_ALLOWED_COUNTRY_CODES.includes(validation.countryCode));
        if (validation.status !== "VALID" || blockedType || blockedCountry) {
          throw new ConnectError(INVALID_PHONE_NUMBER, Code.InvalidArgument);
        }
        if (record) {
          record.validationStatus = validation.status;
          record.countryCode = validation.countryCode ?? record.countryCode ?? null;
        }
      }
      const now = new Date();
      const pending = await em.findOne(MobileCode, { phoneNumber: e164 });
      if (pending && now.getTime() - pending.sentAt.getTime() < config.MOBILE_CODE_MIN_RESEND_SECONDS * 1000) {
        const wait = Math.ceil(
          (pending.sentAt.getTime() + config.MOBILE_CODE_MIN_RESEND_SECONDS * 1000 - now.getTime()) / 1000,
        );
        throw tooMany(RESEND_TOO_SOON, wait);
      }
      const code = newCode();
      const expiresAt = new Date(now.getTime() + config.MOBILE_CODE_TTL_SECONDS * 1000);
      const row =
        pending ?? em.create(MobileCode, { phoneNumber: e164, codeHash: "", expiresAt, attempts: 0, sentAt: now });
      row.codeHash = hashCode(code);
      row.expiresAt = expiresAt;
      row.attempts = 0;
      row.sentAt = now;
      // Sent before the flush: a failed send leaves no code that could block the next request.
      try {
        const minutes = Math.round(config.MOBILE_CODE_TTL_SECONDS / 60);
        await svc.providers.sms.send({
          to: e164,
          body: `Your Turntable code is ${code}. It expires in ${minutes} minutes.`,
        });
      } catch (err) {
        throw new ConnectError(CODE_NOT_SENT, Code.Unavailable, undefined, undefined, err);
      }
      await em.flush();
      return {
        phoneNumber: e164,
        expiresAt: timestampFromDate(expiresAt),
        resendAt: timestampFromDate(new Date(now.getTime() + config.MOBILE_CODE_MIN_RESEND_SECONDS * 1000)),
      };
    },

    async verifyMobileCode(req, ctx) {
      // Guessing is limited per code already; this stops one address from trying many numbers' codes.
      const verifyPerAddress = {
        action: "mobile-verify",
        limit: config.MOBILE_CODES_PER_IP_PER_HOUR * config.MOBILE_CODE_MAX_ATTEMPTS,
        windowSeconds: hour,
      };
      const e164 = readE164(req.phoneNumber);
      const em = callEm(ctx);
      const address = clientAddress(ctx);
      if (address !== undefined) await enforceThrottles(em, [{ rule: verifyPerAddress, subject: `ip:${address}` }]);
      const pending = await em.findOne(MobileCode, { phoneNumber: e164 });
      if (!pending || pending.expiresAt <= new Date()) {
        throw new ConnectError(INCORRECT_MOBILE_CODE, Code.PermissionDenied);
      }
      if (pending.attempts >= config.MOBILE_CODE_MAX_ATTEMPTS) {
        throw new ConnectError(TOO_MANY_ATTEMPTS, Code.ResourceExhausted);
      }
      if (!codeMatches(pending.codeHash, req.code.trim())) {
        pending.attempts += 1;
        await em.flush();
        throw new ConnectError(INCORRECT_MOBILE_CODE, Code.PermissionDenied);
      }
      em.remove(pending);
      const record = await phoneNumberRecord(em, e164);
      let user = record.userId ? await em.findOne(User, { id: record.userId }) : null;
      const created = user === null;
      if (!user) {
        // The account has no e-mail yet; a unique placeholder in a reserved domain fills the required column.
        const nickname = `listener-${randomBytes(3).toString("hex")}`;
        user = createAccount(em, {
          email: `${randomUUID()}@${PHONE_ACCOUNT_EMAIL_DOMAIN}`,
          passwordHash: NO_PASSWORD_HASH,
          role: "user",
          nickname,
        }).user;
        record.userId = user.id;
      }
      record.verifiedAt = new Date();
      if (record.validationStatus === null || record.validationStatus === undefined) {
        const validation = await em.findOne(PhoneValidation, { phoneNumber: e164 });
        record.validationStatus = validation?.status ?? null;
        record.countryCode = validation?.countryCode ?? record.countryCode ?? null;
      }
      const { issued } = await startSession(em, svc.tokens, user, callUserAgent(ctx));
      // One flush: the used code, the account, its number and the session are written together or not at all.
      try {
        await em.flush();
      } catch (err) {
        // Two calls with the same right code at once: the other one recorded the number first and won.
        if (err instanceof UniqueConstraintViolationException) {
          throw new ConnectError(INCORRECT_MOBILE_CODE, Code.PermissionDenied, undefined, undefined, err);
        }
        throw err;
      }
      return { user: await view(em, user), accessToken: toAccessTokenMessage(issued), created };
    },
  };
}
