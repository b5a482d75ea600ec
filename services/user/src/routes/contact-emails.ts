// The caller's e-mails: list, add, remove, (re)send and check verification codes.
import { Code, ConnectError, type HandlerContext, type ServiceImpl } from "@connectrpc/connect";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { ContactService } from "@tt/proto/tt/user/v1/contact_service_pb";
import { EMAIL_ALREADY_REGISTERED, checkEmail, normalizeEmail } from "../account-rules.ts";
import { codeMatches, hashCode, newCode } from "../modules/contact/codes.ts";
import type { ContactConfig } from "../modules/contact/contact-config.ts";
import { Email } from "../modules/contact/email.entity.ts";
import { ensurePrimaryEmail, EmailStatus, toEmailMessage, USER_EMAIL_TYPES } from "../modules/contact/emails.ts";
import { accountAndAddress, enforceThrottles, isUuid, type ThrottleRule } from "@tt/kit";
import { User } from "../modules/users/user.entity.ts";
import type { UserServiceContext } from "../user-context.ts";
import { callEm, callerAccount, callIdentity } from "./call.ts";
import {
  CODE_NOT_SENT,
  EMAIL_ALREADY_VERIFIED,
  EMAIL_NOT_FOUND,
  INCORRECT_EMAIL_CODE,
  INVALID_EMAIL_TYPE,
  MIN_INTERVAL_NOT_ELAPSED,
  PRIMARY_EMAIL_NOT_DELETABLE,
  TOO_MANY_ATTEMPTS,
} from "./contact-shared.ts";

export function emailRoutes(
  svc: UserServiceContext,
  config: ContactConfig,
): Partial<ServiceImpl<typeof ContactService>> {
  /** The per-account and per-address limits on asking for codes. */
  function codeRequestChecks(ctx: HandlerContext, userId: string) {
    const perAccount: ThrottleRule = {
      action: "email-code",
      limit: config.EMAIL_CODE_REQUESTS_PER_HOUR,
      windowSeconds: 3600,
    };
    // An address is shared by the people behind it, so it gets a few accounts' worth.
    const perAddress: ThrottleRule = { ...perAccount, limit: perAccount.limit * 5 };
    return accountAndAddress(ctx, userId, perAccount, perAddress);
  }

  /** Gives the row a fresh code and mails it. Mailed before the caller's flush: a failed send changes nothing. */
  async function sendCode(email: Email, now: Date): Promise<void> {
    const code = newCode();
    email.codeHash = hashCode(code);
    email.codeExpiresAt = new Date(now.getTime() + config.EMAIL_CODE_TTL_SECONDS * 1000);
    email.codeAttempts = 0;
    email.verificationSentAt = now;
    const minutes = Math.round(config.EMAIL_CODE_TTL_SECONDS / 60);
    try {
      await svc.providers.email.send({
        to: email.email,
        subject: "Your Turntable verification code",
        text: `Your verification code is ${code}. It expires in ${minutes} minutes.`,
      });
    } catch (err) {
      throw new ConnectError(CODE_NOT_SENT, Code.Unavailable, undefined, undefined, err);
    }
  }

  /** The shared check of VerifyEmail and ConfirmEmail; a wrong code is counted before the 403. */
  async function checkCode(em: EntityManager, email: Email, code: string): Promise<"VERIFIED" | "ERROR"> {
    if (email.status === EmailStatus.verified) throw new ConnectError(EMAIL_ALREADY_VERIFIED, Code.PermissionDenied);
    if (email.codeAttempts >= config.EMAIL_CODE_MAX_ATTEMPTS) {
      throw new ConnectError(TOO_MANY_ATTEMPTS, Code.ResourceExhausted);
    }
    const live = email.codeExpiresAt !== null && email.codeExpiresAt !== undefined && email.codeExpiresAt > new Date();
    if (!live || !codeMatches(email.codeHash, code.trim())) {
      email.codeAttempts += 1;
      await em.flush();
      throw new ConnectError(INCORRECT_EMAIL_CODE, Code.PermissionDenied);
    }
    email.codeHash = null;
    email.codeExpiresAt = null;
    email.codeAttempts = 0;
    // The code was right but the address was removed meanwhile: nothing to verify any more.
    if (email.status === EmailStatus.deleted) {
      await em.flush();
      return "ERROR";
    }
    email.status = EmailStatus.verified;
    email.verifiedAt = new Date();
    await em.flush();
    return "VERIFIED";
  }

  /** One of the caller's e-mails by id (DELETED ones only when asked); another user's is "not found". */
  async function ownEmail(em: EntityManager, ctx: HandlerContext, id: string, includeDeleted = false): Promise<Email> {
    const userId = callIdentity(ctx).subject;
    if (!isUuid(id)) throw new ConnectError(EMAIL_NOT_FOUND, Code.NotFound);
    const email = await em.findOne(Email, {
      id,
      userId,
      ...(includeDeleted ? {} : { status: { $ne: EmailStatus.deleted } }),
    });
    if (!email) throw new ConnectError(EMAIL_NOT_FOUND, Code.NotFound);
    return email;
  }

  return {
    async listEmails(_req, ctx) {
      const em = callEm(ctx);
      const user = await callerAccount(em, ctx);
      await ensurePrimaryEmail(em, user);
      await em.flush();
      const emails = await em.find(
        Email,
        { userId: user.id, status: { $ne: EmailStatus.deleted } },
        { orderBy: { primary: "DESC", createdAt: "ASC", id: "ASC" } },
      );
      return { emails: emails.map(toEmailMessage) };
    },

    async addEmail(req, ctx) {
      const type = req.type.trim();
      if (!(USER_EMAIL_TYPES as readonly string[]).includes(type)) {
        throw new ConnectError(INVALID_EMAIL_TYPE, Code.InvalidArgument);
      }
      const address = checkEmail(req.email);
      const em = callEm(ctx);
      const user = await callerAccount(em, ctx);
      const taken =
        (await em.count(User, { email: address })) > 0 ||
        (await em.count(Email, { email: address, status: { $ne: EmailStatus.deleted } })) > 0;
      if (taken) throw new ConnectError(EMAIL_ALREADY_REGISTERED, Code.PermissionDenied);
      await enforceThrottles(em, codeRequestChecks(ctx, user.id));
      await ensurePrimaryEmail(em, user);
      const email = em.create(Email, {
        userId: user.id,
        email: address,
        type,
        status: EmailStatus.pending,
        primary: false,
        codeHash: null,
        codeExpiresAt: null,
        codeAttempts: 0,
        verifiedAt: null,
        verificationSentAt: null,
      });
      await sendCode(email, new Date());
      await em.flush();
      return { email: toEmailMessage(email) };
    },

    async deleteEmail(req, ctx) {
      const em = callEm(ctx);
      const email = await ownEmail(em, ctx, req.id);
      if (email.primary) throw new ConnectError(PRIMARY_EMAIL_NOT_DELETABLE, Code.PermissionDenied);
      // The pending code stays: checked later it answers ERROR (the address is gone), as VerifyEmail documents.
      email.status = EmailStatus.deleted;
      await em.flush();
      return {};
    },

    async sendVerificationEmail(req, ctx) {
      const em = callEm(ctx);
      const userId = callIdentity(ctx).subject;
      await enforceThrottles(em, codeRequestChecks(ctx, userId));
      const email = await ownEmail(em, ctx, req.id);
      if (email.status === EmailStatus.verified) throw new ConnectError(EMAIL_ALREADY_VERIFIED, Code.PermissionDenied);
      const now = new Date();
      const last = email.verificationSentAt;
      if (last && now.getTime() - last.getTime() < config.EMAIL_VERIFICATION_MIN_INTERVAL_SECONDS * 1000) {
        throw new ConnectError(MIN_INTERVAL_NOT_ELAPSED, Code.PermissionDenied);
      }
      await sendCode(email, now);
      await em.flush();
      return { email: toEmailMessage(email) };
    },

    async verifyEmail(req, ctx) {
      const em = callEm(ctx);
      const email = await ownEmail(em, ctx, req.id, true);
      const result = await checkCode(em, email, req.code);
      return { result, email: toEmailMessage(email) };
    },

    async confirmEmail(req, ctx) {
      const em = callEm(ctx);
      const address = normalizeEmail(req.email);
      // Without a session the address names the row; the primary one wins when an old row shares it.
      const email =
        address === ""
          ? null
          : await em.findOne(
              Email,
              { email: address, status: { $ne: EmailStatus.deleted } },
              { orderBy: { primary: "DESC", createdAt: "DESC" } },
            );
      if (!email) throw new ConnectError(EMAIL_NOT_FOUND, Code.NotFound);
      const result = await checkCode(em, email, req.code);
      return { result, email: toEmailMessage(email) };
    },
  };
}
