// Admin: recorded phone numbers and the whitelist, number validation and its recents, the fraud limits,
// and the development outbox.
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import { UniqueConstraintViolationException } from "@mikro-orm/core";
import type { EntityManager } from "@mikro-orm/postgresql";
import {
  DevOutboxMessageSchema,
  FraudConstantsSchema,
  type ContactService,
} from "@tt/proto/tt/user/v1/contact_service_pb";
import { adminList, checkLimit, isUuid, type AdminListSpec } from "@tt/kit";
import type { ContactConfig } from "../modules/contact/contact-config.ts";
import { PhoneNumber } from "../modules/contact/phone-number.entity.ts";
import { PhoneValidation } from "../modules/contact/phone-validation.entity.ts";
import {
  phoneNumberRecord,
  toPhoneNumberMessage,
  toPhoneValidationMessage,
  unreadablePhoneValidation,
  validateThroughCache,
} from "../modules/contact/phone-numbers.ts";
import { normalizeE164 } from "../providers/index.ts";
import { User } from "../modules/users/user.entity.ts";
import type { UserServiceContext } from "../user-context.ts";
import { callEm } from "./call.ts";
import { readE164 } from "./contact-mobile.ts";
import { DEV_OUTBOX_OFF, PHONE_NUMBER_EXISTS, PHONE_NUMBER_NOT_FOUND, UNKNOWN_ACCOUNT } from "./contact-shared.ts";

/** API field name → entity property for GET /admin/phoneNumbers. */
export const ADMIN_PHONE_NUMBER_LIST: AdminListSpec<PhoneNumber> = {
  entity: PhoneNumber,
  fields: {
    id: "id",
    phoneNumber: "phoneNumber",
    userUuid: "userId",
    whitelisted: "whitelisted",
    validationStatus: "validationStatus",
    countryCode: "countryCode",
    note: "note",
    verifiedAt: "verifiedAt",
    createdAt: "createdAt",
    updatedAt: "updatedAt",
  },
  defaultSort: [
    ["createdAt", "ASC"],
    ["id", "ASC"],
  ],
};

async function recordById(em: EntityManager, id: string): Promise<PhoneNumber> {
  const found = isUuid(id) ? await em.findOne(PhoneNumber, { id }) : null;
  if (!found) throw new ConnectError(PHONE_NUMBER_NOT_FOUND, Code.NotFound);
  return found;
}

/** "" detaches; anything else must name an account. */
async function accountId(em: EntityManager, userUuid: string): Promise<string | null> {
  const id = userUuid.trim();
  if (id === "") return null;
  if (!isUuid(id) || (await em.count(User, { id })) === 0)
    throw new ConnectError(UNKNOWN_ACCOUNT, Code.InvalidArgument);
  return id;
}

async function flushRecord(em: EntityManager): Promise<void> {
  try {
    await em.flush();
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) {
      throw new ConnectError(PHONE_NUMBER_EXISTS, Code.AlreadyExists, undefined, undefined, err);
    }
    throw err;
  }
}

export function phoneRoutes(
  svc: UserServiceContext,
  config: ContactConfig,
): Partial<ServiceImpl<typeof ContactService>> {
  // The outbox only fills while a development sender is in use; with both real ones it stays empty for good.
  const providers = svc.areas.providers;
  const devOutboxInUse = providers.SMTP_URL === undefined || providers.SMS_ACCOUNT_SID === undefined;

  return {
    async adminCreatePhoneNumber(req, ctx) {
      const e164 = readE164(req.phoneNumber);
      const em = callEm(ctx);
      const userId = await accountId(em, req.userUuid);
      if ((await em.count(PhoneNumber, { phoneNumber: e164 })) > 0) {
        throw new ConnectError(PHONE_NUMBER_EXISTS, Code.AlreadyExists);
      }
      const record = em.create(PhoneNumber, {
        phoneNumber: e164,
        userId,
        whitelisted: req.whitelisted,
        validationStatus: null,
        countryCode: null,
        note: req.note.trim() === "" ? null : req.note.trim(),
        verifiedAt: null,
      });
      await flushRecord(em);
      return { phoneNumber: toPhoneNumberMessage(record) };
    },

    async adminListPhoneNumbers(req, ctx) {
      const page = await adminList(callEm(ctx), ADMIN_PHONE_NUMBER_LIST, req.query ?? {});
      return { ...page, data: page.data.map(toPhoneNumberMessage) };
    },

    async adminGetPhoneNumber(req, ctx) {
      return { phoneNumber: toPhoneNumberMessage(await recordById(callEm(ctx), req.id)) };
    },

    async adminUpdatePhoneNumber(req, ctx) {
      const em = callEm(ctx);
      // Read everything first: a bad field refuses the whole change.
      const e164 = req.phoneNumber === undefined ? undefined : readE164(req.phoneNumber);
      const record = await recordById(em, req.id);
      const userId = req.userUuid === undefined ? undefined : await accountId(em, req.userUuid);
      if (e164 !== undefined && e164 !== record.phoneNumber) {
        if ((await em.count(PhoneNumber, { phoneNumber: e164 })) > 0) {
          throw new ConnectError(PHONE_NUMBER_EXISTS, Code.AlreadyExists);
        }
        record.phoneNumber = e164;
        record.validationStatus = null;
        record.countryCode = null;
        record.verifiedAt = null;
      }
      if (userId !== undefined) record.userId = userId;
      if (req.whitelisted !== undefined) record.whitelisted = req.whitelisted;
      if (req.note !== undefined) record.note = req.note.trim() === "" ? null : req.note.trim();
      await flushRecord(em);
      return { phoneNumber: toPhoneNumberMessage(record) };
    },

    async adminDeletePhoneNumber(req, ctx) {
      const em = callEm(ctx);
      em.remove(await recordById(em, req.id));
      await em.flush();
      return {};
    },

    async whitelistPhoneNumber(req, ctx) {
      const e164 = readE164(req.phoneNumber);
      const em = callEm(ctx);
      const record = await phoneNumberRecord(em, e164);
      record.whitelisted = true;
      if (req.note.trim() !== "") record.note = req.note.trim();
      await flushRecord(em);
      return { phoneNumber: toPhoneNumberMessage(record) };
    },

    async unwhitelistPhoneNumber(req, ctx) {
      const em = callEm(ctx);
      const record = await recordById(em, req.id);
      record.whitelisted = false;
      await em.flush();
      return {};
    },

    async validatePhoneNumber(req, ctx) {
      const e164 = normalizeE164(req.phone);
      // An unreadable number is an outcome (spec 000 §3/§4: INVALID), not a bad request; nothing is looked up,
      // so nothing joins the recents, which hold E.164 numbers only.
      if (e164 === undefined) {
        return { validation: unreadablePhoneValidation(req.phone) };
      }
      const row = await validateThroughCache(
        callEm(ctx),
        svc.providers.phoneValidation,
        e164,
        config.PHONE_VALIDATION_CACHE_SECONDS,
      );
      return { validation: toPhoneValidationMessage(row) };
    },

    async listRecentPhoneValidations(req, ctx) {
      const limit = checkLimit(req.limit, 100, 500);
      const rows = await callEm(ctx).find(
        PhoneValidation,
        {},
        { orderBy: { validatedAt: "DESC", phoneNumber: "ASC" }, limit },
      );
      return { validations: rows.map(toPhoneValidationMessage) };
    },

    async clearRecentPhoneValidations(_req, ctx) {
      const removed = await callEm(ctx).nativeDelete(PhoneValidation, {});
      return { removed };
    },

    async getFraudConstants() {
      return {
        fraudConstants: create(FraudConstantsSchema, {
          codeTtlSeconds: config.MOBILE_CODE_TTL_SECONDS,
          minResendIntervalSeconds: config.MOBILE_CODE_MIN_RESEND_SECONDS,
          maxCodesPerNumberPerHour: config.MOBILE_CODES_PER_NUMBER_PER_HOUR,
          maxCodesPerIpPerHour: config.MOBILE_CODES_PER_IP_PER_HOUR,
          maxVerifyAttempts: config.MOBILE_CODE_MAX_ATTEMPTS,
          validationCacheSeconds: config.PHONE_VALIDATION_CACHE_SECONDS,
          blockedCarrierTypes: [...config.PHONE_BLOCKED_CARRIER_TYPES],
          allowedCountryCodes: [...config.PHONE_ALLOWED_COUNTRY_CODES],
        }),
      };
    },

    async listDevOutbox(req) {
      if (!devOutboxInUse) throw new ConnectError(DEV_OUTBOX_OFF, Code.NotFound);
      const limit = checkLimit(req.limit, 50, 500);
      const to = req.to.trim();
      const entries = await svc.devOutbox.list({ limit, ...(to === "" ? {} : { to }) });
      return {
        messages: entries.map((e) =>
          create(DevOutboxMessageSchema, {
            id: e.id,
            channel: e.channel,
            to: e.to,
            subject: e.subject ?? "",
            body: e.body,
            createdAt: timestampFromDate(e.createdAt),
          }),
        ),
      };
    },
  };
}
