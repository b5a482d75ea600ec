// Vouchers: staff create and revoke them; a signed-in user redeems one, or a newcomer signs up with one.
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import { LockMode, UniqueConstraintViolationException } from "@mikro-orm/core";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { AccountService } from "@tt/proto/tt/user/v1/account_service_pb";
import { adminList, type AdminListSpec } from "@tt/kit";
import {
  EMAIL_ALREADY_REGISTERED,
  MISSING_CREDENTIALS,
  checkEmail,
  checkNewPassword,
  nicknameFor,
} from "../account-rules.ts";
import type { AccountView } from "../modules/accounts/account-message.ts";
import { Voucher } from "../modules/accounts/voucher.entity.ts";
import { enqueueVoucherRedeemed } from "../modules/accounts/voucher-events.ts";
import { enqueueUserUpdated } from "../modules/profile-data/profile-events.ts";
import {
  BADGES,
  CAPABILITIES,
  checkValues,
  checkVoucherCode,
  generateVoucherCode,
  isRedeemable,
  merged,
  normalizeVoucherCode,
  toVoucherMessage,
  VOUCHER_CODE_MISSING,
  VOUCHER_CODE_TAKEN,
  VOUCHER_NOT_FOUND,
  VOUCHER_NOT_REDEEMABLE,
  VOUCHER_REDEEMED,
} from "../modules/accounts/voucher-rules.ts";
import { startSession, toAccessTokenMessage } from "../modules/sessions/start-session.ts";
import { createAccount, flushNewAccount } from "../modules/users/create-account.ts";
import { User } from "../modules/users/user.entity.ts";
import { hashPassword } from "../passwords.ts";
import type { UserServiceContext } from "../user-context.ts";
import { callEm, callerAccount, callIdentity, callUserAgent } from "./call.ts";

export const EXPIRY_IN_PAST = "expiresAt must be in the future";
export const NOTE_TOO_LONG = "note must be at most 1000 characters long";

/** API field name → entity property: the only fields a voucher list query may use. */
export const VOUCHER_LIST: AdminListSpec<Voucher> = {
  entity: Voucher,
  fields: {
    id: "id",
    code: "code",
    status: "status",
    capabilities: "capabilities",
    badges: "badges",
    note: "note",
    createdByUuid: "createdByUuid",
    redeemedByUuid: "redeemedByUuid",
    createdAt: "createdAt",
    expiresAt: "expiresAt",
    redeemedAt: "redeemedAt",
    revokedAt: "revokedAt",
  },
  defaultSort: [
    ["createdAt", "DESC"],
    ["id", "ASC"],
  ],
};

/**
 * The voucher behind `code`, locked for this transaction so two redemptions of one code queue up and the
 * second sees it REDEEMED. 404 when unknown, 403 when it can no longer be redeemed.
 */
async function lockRedeemable(em: EntityManager, rawCode: string): Promise<Voucher> {
  const code = normalizeVoucherCode(rawCode);
  const voucher =
    code.length > 64 ? null : await em.findOne(Voucher, { code }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!voucher) throw new ConnectError(VOUCHER_NOT_FOUND, Code.NotFound);
  if (!isRedeemable(voucher)) throw new ConnectError(VOUCHER_NOT_REDEEMABLE, Code.PermissionDenied);
  return voucher;
}

/**
 * Grants what the voucher carries and marks it REDEEMED, with tt.user.voucher.redeemed and (the account's
 * capabilities and badges changed) tt.user.user.updated; all persisted with the caller's flush.
 */
function redeem(em: EntityManager, voucher: Voucher, user: User, now = new Date()): void {
  user.capabilities = merged(user.capabilities, voucher.capabilities);
  user.badges = merged(user.badges, voucher.badges);
  voucher.status = "REDEEMED";
  voucher.redeemedByUuid = user.id;
  voucher.redeemedAt = now;
  enqueueVoucherRedeemed(em, voucher);
  enqueueUserUpdated(em, user, now);
}

export function accountVoucherRoutes(
  svc: UserServiceContext,
  view: AccountView,
): Partial<ServiceImpl<typeof AccountService>> {
  return {
    async createVoucher(req, ctx) {
      const identity = callIdentity(ctx);
      const code = req.code.trim() === "" ? generateVoucherCode() : checkVoucherCode(req.code);
      const capabilities = checkValues("capability", req.capabilities, CAPABILITIES);
      const badges = checkValues("badge", req.badges, BADGES);
      if (req.note.length > 1000) throw new ConnectError(NOTE_TOO_LONG, Code.InvalidArgument);
      const expiresAt = req.expiresAt ? timestampDate(req.expiresAt) : null;
      if (expiresAt && expiresAt.getTime() <= Date.now()) throw new ConnectError(EXPIRY_IN_PAST, Code.InvalidArgument);
      const em = callEm(ctx);
      if ((await em.count(Voucher, { code })) > 0) throw new ConnectError(VOUCHER_CODE_TAKEN, Code.AlreadyExists);
      const voucher = em.create(Voucher, {
        code,
        status: "PENDING",
        capabilities,
        badges,
        note: req.note,
        createdByUuid: identity.subject,
        redeemedByUuid: null,
        expiresAt,
        redeemedAt: null,
        revokedAt: null,
      });
      try {
        await em.flush();
      } catch (err) {
        if (err instanceof UniqueConstraintViolationException) {
          throw new ConnectError(VOUCHER_CODE_TAKEN, Code.AlreadyExists, undefined, undefined, err);
        }
        throw err;
      }
      return { voucher: toVoucherMessage(voucher) };
    },

    async listVouchers(req, ctx) {
      const page = await adminList(callEm(ctx), VOUCHER_LIST, req.query ?? {});
      return { ...page, data: page.data.map(toVoucherMessage) };
    },

    async revokeVoucher(req, ctx) {
      // A uuid: the field's declared rule (uuid, required) refused anything else before the handler.
      const id = req.id.toLowerCase();
      const em = callEm(ctx);
      return em.transactional(async (tem) => {
        const voucher = await tem.findOne(Voucher, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
        if (!voucher) throw new ConnectError(VOUCHER_NOT_FOUND, Code.NotFound);
        if (voucher.status === "REDEEMED") throw new ConnectError(VOUCHER_REDEEMED, Code.PermissionDenied);
        if (voucher.status === "PENDING") {
          voucher.status = "REVOKED";
          voucher.revokedAt = new Date();
        }
        return { voucher: toVoucherMessage(voucher) };
      });
    },

    async redeemVoucher(req, ctx) {
      if (req.code.trim() === "") throw new ConnectError(VOUCHER_CODE_MISSING, Code.InvalidArgument);
      return callEm(ctx).transactional(async (em) => {
        const voucher = await lockRedeemable(em, req.code);
        const user = await callerAccount(em, ctx);
        redeem(em, voucher, user);
        return { voucher: toVoucherMessage(voucher) };
      });
    },

    async voucherSignUp(req, ctx) {
      if (req.email.trim() === "" || req.password === "") {
        throw new ConnectError(MISSING_CREDENTIALS, Code.InvalidArgument);
      }
      if (req.voucherCode.trim() === "") throw new ConnectError(VOUCHER_CODE_MISSING, Code.InvalidArgument);
      const email = checkEmail(req.email);
      const nickname = nicknameFor(req.nickname, email);
      checkNewPassword(req.password, { email, nickname });
      const outer = callEm(ctx);
      if ((await outer.count(User, { email })) > 0) {
        throw new ConnectError(EMAIL_ALREADY_REGISTERED, Code.PermissionDenied);
      }
      const userAgent = callUserAgent(ctx);
      return outer.transactional(async (em) => {
        const voucher = await lockRedeemable(em, req.voucherCode);
        // Hashed only for a redeemable voucher: a made-up code must cost no argon2 work (as reset-password).
        const passwordHash = await hashPassword(req.password);
        const { user } = createAccount(em, { email, passwordHash, role: "user", nickname });
        redeem(em, voucher, user);
        const { issued } = await startSession(em, svc.tokens, user, userAgent);
        // The account, its event, the redemption and the session commit together or not at all.
        await flushNewAccount(em);
        return { user: await view(em, user), accessToken: toAccessTokenMessage(issued) };
      });
    },
  };
}
