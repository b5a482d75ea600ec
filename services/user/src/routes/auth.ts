// Signing up, in and out, and asking who a token belongs to.
import { randomUUID } from "node:crypto";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import type { AuthService } from "@tt/proto/tt/user/v1/auth_service_pb";
import {
  checkEmail,
  checkNewPassword,
  EMAIL_ALREADY_REGISTERED,
  MISSING_CREDENTIALS,
  nicknameFor,
  normalizeEmail,
} from "../account-rules.ts";
import { serviceAccountView } from "../modules/accounts/account-message.ts";
import { throttleLogin } from "../modules/contact/login-throttle.ts";
import { Session } from "../modules/sessions/session.entity.ts";
import { revokeSessions } from "../modules/sessions/revoke-sessions.ts";
import { startSession, toAccessTokenMessage } from "../modules/sessions/start-session.ts";
import { createAccount, flushNewAccount } from "../modules/users/create-account.ts";
import { User } from "../modules/users/user.entity.ts";
import { hashPassword, verifyPasswordOrDummy } from "../passwords.ts";
import type { UserServiceContext } from "../user-context.ts";
import { callEm, callerAccount, callIdentity, callUserAgent } from "./call.ts";
import { helloRoutes } from "./hello.ts";
import { keyRoutes } from "./keys.ts";
import { passwordRoutes } from "./passwords.ts";

export const INCORRECT_CREDENTIALS = "incorrect email or password";

/** tt.user.v1.AuthService: the hello, sign-up, sign-in and out, sessions, guest tokens, the signing keys, password change. */
export function authRoutes(svc: UserServiceContext): Partial<ServiceImpl<typeof AuthService>> {
  return {
    ...helloRoutes(),
    ...sessionRoutes(svc),
    ...keyRoutes(svc),
    ...passwordRoutes(svc),
  };
}

function sessionRoutes(svc: UserServiceContext): Partial<ServiceImpl<typeof AuthService>> {
  // The account in full, as the accounts area answers it: e-mails, phone numbers, whether a password is set.
  const view = serviceAccountView(svc.areas.media);
  return {
    async signUp(req, ctx) {
      if (req.email.trim() === "" || req.password === "") {
        throw new ConnectError(MISSING_CREDENTIALS, Code.InvalidArgument);
      }
      const email = checkEmail(req.email);
      const nickname = nicknameFor(req.nickname, email);
      checkNewPassword(req.password, { email, nickname });
      const em = callEm(ctx);
      // Checked before hashing so a taken address answers quickly; the unique index below is what decides.
      if ((await em.count(User, { email })) > 0)
        throw new ConnectError(EMAIL_ALREADY_REGISTERED, Code.PermissionDenied);
      const passwordHash = await hashPassword(req.password);
      const { user } = createAccount(em, { email, passwordHash, role: "user", nickname });
      const { issued } = await startSession(em, svc.tokens, user, callUserAgent(ctx));
      await flushNewAccount(em);
      return { user: await view(em, user), accessToken: toAccessTokenMessage(issued) };
    },

    async login(req, ctx) {
      const em = callEm(ctx);
      const attempt = await throttleLogin(svc, em, ctx, req.email);
      const email = normalizeEmail(req.email);
      const user = email === "" ? null : await em.findOne(User, { email }, { populate: ["passwordHash"] });
      // Both branches spend one argon2 verification: the answer must not reveal whether the address exists.
      const ok = await verifyPasswordOrDummy(user?.passwordHash, req.password);
      if (!user || !ok) {
        await attempt.failed();
        throw new ConnectError(INCORRECT_CREDENTIALS, Code.Unauthenticated);
      }
      await attempt.succeeded();
      const { issued } = await startSession(em, svc.tokens, user, callUserAgent(ctx));
      await em.flush();
      return { user: await view(em, user), accessToken: toAccessTokenMessage(issued) };
    },

    async logout(_req, ctx) {
      const identity = callIdentity(ctx);
      const em = callEm(ctx);
      const session = await em.findOne(Session, { id: identity.sessionId, revokedAt: null });
      if (session) {
        await revokeSessions(em, svc.revocations, [session]);
      } else {
        // No row (already revoked, or a token older than its row): still make sure every service refuses it.
        await svc.revocations.revoke(identity.sessionId, identity.expiresAt);
      }
      return {};
    },

    async getSession(_req, ctx) {
      const identity = callIdentity(ctx);
      const base = {
        tokenType: identity.tokenType,
        role: identity.role,
        sessionId: identity.sessionId,
        expiresAt: timestampFromDate(identity.expiresAt),
      };
      if (identity.tokenType !== "user" && identity.tokenType !== "bot") return base;
      const em = callEm(ctx);
      const user = await callerAccount(em, ctx);
      return { ...base, user: await view(em, user) };
    },

    async getGuestToken() {
      // Guests have no account and no session row: the ids only let services tell guests apart and let a
      // guest token be revoked like any other.
      const issued = await svc.tokens.issue({ sub: randomUUID(), typ: "guest", role: "guest", sid: randomUUID() });
      return { accessToken: toAccessTokenMessage(issued) };
    },
  };
}
