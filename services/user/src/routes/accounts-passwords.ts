// Forgotten passwords (a code by e-mail, then a reset) and giving a password to an account that has none.
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import type { AccountService } from "@tt/proto/tt/user/v1/account_service_pb";
import { checkEmail, checkNewPassword, normalizeEmail } from "../account-rules.ts";
import type { AccountConfig } from "../modules/accounts/account-config.ts";
import type { AccountView } from "../modules/accounts/account-message.ts";
import { hasPassword } from "../modules/accounts/no-password.ts";
import { isEmailVerified } from "../modules/contact/emails.ts";
import { accountAndAddress, clientAddress, enforceThrottles, type ThrottleCheck } from "@tt/kit";
import { AccountToken } from "../modules/accounts/account-token.entity.ts";
import { createAccountToken, hashSecret, newSecret, spendAccountToken } from "../modules/accounts/one-time-token.ts";
import { Session } from "../modules/sessions/session.entity.ts";
import { startSession, toAccessTokenMessage, tokenTypeFor } from "../modules/sessions/start-session.ts";
import { User } from "../modules/users/user.entity.ts";
import { hashPassword } from "../passwords.ts";
import type { UserServiceContext } from "../user-context.ts";
import { revokeOtherSessions } from "./accounts-shared.ts";
import { callEm, callerAccount, callIdentity, callUserAgent } from "./call.ts";

export const EMAIL_MISSING = "email missing in request";
export const RESET_TOO_OFTEN = "too many password reset requests, try again later";
export const CANNOT_RESET_PASSWORD = "can not reset password";
export const RESET_ATTEMPTS_TOO_MANY = "too many password reset attempts, try again later";
export const PASSWORD_MISSING = "password missing in request";
export const EMAIL_NOT_VERIFIED = "email address not verified";
export const PASSWORD_ALREADY_SET = "this account already has a password, use change-password";

export function accountPasswordRoutes(
  svc: UserServiceContext,
  config: AccountConfig,
  view: AccountView,
): Partial<ServiceImpl<typeof AccountService>> {
  return {
    async forgotPassword(req, ctx) {
      if (req.email.trim() === "") throw new ConnectError(EMAIL_MISSING, Code.InvalidArgument);
      const email = checkEmail(req.email);
      const em = callEm(ctx);
      // Per address whether or not it has an account, so the 429 does not tell who is registered; per client
      // address so one caller cannot spray the mailboxes of many. Shared by replicas (PostgreSQL windows).
      const perAccount = { action: "password-reset", limit: 1, windowSeconds: config.PASSWORD_RESET_INTERVAL_SECONDS };
      const perClient = {
        action: "password-reset",
        limit: config.PASSWORD_RESETS_PER_CLIENT_PER_HOUR,
        windowSeconds: 3600,
      };
      await enforceThrottles(em, accountAndAddress(ctx, email, perAccount, perClient), RESET_TOO_OFTEN);
      // The secret is made whether or not the account exists, so both answers cost the same work.
      const secret = newSecret();
      const user = await em.findOne(User, { email });
      // Bots and accounts without an address have a reserved .invalid one that no mail can reach.
      if (!user || user.email.endsWith(".invalid")) return {};
      const now = new Date();
      const code = await em.transactional(async (tem) => {
        // Only the newest code works: an older e-mail lying around in an inbox is dead.
        await tem.nativeUpdate(AccountToken, { user: user.id, purpose: "reset", usedAt: null }, { usedAt: now });
        return createAccountToken(tem, user, "reset", config.PASSWORD_RESET_TTL_SECONDS, now, secret).secret;
      });
      const minutes = Math.round(config.PASSWORD_RESET_TTL_SECONDS / 60);
      const link = `${config.WEB_BASE_URL}/reset-password?email=${encodeURIComponent(email)}&code=${code}`;
      // Not awaited: a slow mail server must not make registered addresses answer later than unknown ones.
      void svc.providers.email
        .send({
          to: user.email,
          subject: "Reset your password",
          text:
            `Someone asked to reset the password of your account.\n\n` +
            `Open ${link}\nor enter the code ${code}\n\n` +
            `It works once, for ${minutes} minutes. If it was not you, ignore this e-mail.`,
        })
        .catch((err: unknown) => svc.logger.warn({ err, userUuid: user.id }, "password reset e-mail not sent"));
      return {};
    },

    async resetPassword(req, ctx) {
      const email = normalizeEmail(req.email);
      if (email === "" || req.code === "") throw new ConnectError(CANNOT_RESET_PASSWORD, Code.PermissionDenied);
      if (req.newPassword === "") throw new ConnectError(PASSWORD_MISSING, Code.InvalidArgument);
      const outer = callEm(ctx);
      // Per code (counted by its hash: the throttle table never holds a live secret) and per client address,
      // right or wrong, before anything is looked up. Codes are 256 random bits, so this is about the cost of
      // answering, not about guessing.
      const checks: ThrottleCheck[] = [
        {
          rule: { action: "reset-password", limit: config.PASSWORD_RESET_ATTEMPTS_PER_CODE, windowSeconds: 3600 },
          subject: `code:${hashSecret(req.code)}`,
        },
      ];
      const address = clientAddress(ctx);
      if (address !== undefined) {
        const limit = config.PASSWORD_RESET_ATTEMPTS_PER_CLIENT_PER_HOUR;
        checks.push({ rule: { action: "reset-password", limit, windowSeconds: 3600 }, subject: `ip:${address}` });
      }
      await enforceThrottles(outer, checks, RESET_ATTEMPTS_TOO_MANY);
      checkNewPassword(req.newPassword, { email });
      const userAgent = callUserAgent(ctx);
      return outer.transactional(async (em) => {
        const token = await spendAccountToken(em, req.code, "reset");
        // A code for another address is as wrong as no code: the answer must not tell which it was.
        if (!token || token.user.email !== email) {
          throw new ConnectError(CANNOT_RESET_PASSWORD, Code.PermissionDenied);
        }
        // Only now, for a live code of this address, the argon2 work (the row lock holds off a second use).
        const user = token.user;
        user.passwordHash = await hashPassword(req.newPassword);
        const { session, issued } = await startSession(em, svc.tokens, user, userAgent);
        // Flushes the spent code, the password, the new session and the revocations as one.
        await revokeOtherSessions(em, svc.revocations, user, session.id);
        return { user: await view(em, user), accessToken: toAccessTokenMessage(issued) };
      });
    },

    async setPassword(req, ctx) {
      const identity = callIdentity(ctx);
      if (req.password === "") throw new ConnectError(PASSWORD_MISSING, Code.InvalidArgument);
      const em = callEm(ctx);
      const user = await callerAccount(em, ctx, { populate: ["passwordHash"] });
      if (hasPassword(user.passwordHash)) throw new ConnectError(PASSWORD_ALREADY_SET, Code.PermissionDenied);
      // The sign-in address must be proven: it is how the password is used and how it is reset later.
      if (!(await isEmailVerified(em, user.id, user.email))) {
        throw new ConnectError(EMAIL_NOT_VERIFIED, Code.Unauthenticated);
      }
      checkNewPassword(req.password, { email: user.email });
      user.passwordHash = await hashPassword(req.password);
      const now = new Date();
      const tokenType = tokenTypeFor(user);
      const expiresAt = svc.tokens.expiresAtFor(tokenType, now);
      const current = await em.findOne(Session, { id: identity.sessionId, user, revokedAt: null });
      if (current) current.expiresAt = expiresAt;
      await revokeOtherSessions(em, svc.revocations, user, identity.sessionId, now);
      const issued = await svc.tokens.issue(
        { sub: user.id, typ: tokenType, role: user.role, sid: identity.sessionId },
        expiresAt,
      );
      return { accessToken: toAccessTokenMessage(issued) };
    },
  };
}
