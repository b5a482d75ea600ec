// Changing one's own password.
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import { OptimisticLockError } from "@mikro-orm/core";
import type { AuthService } from "@tt/proto/tt/user/v1/auth_service_pb";
import { checkNewPassword } from "../account-rules.ts";
import { Session } from "../modules/sessions/session.entity.ts";
import { revokeSessions } from "../modules/sessions/revoke-sessions.ts";
import { toAccessTokenMessage, tokenTypeFor } from "../modules/sessions/start-session.ts";
import { hashPassword, verifyPassword } from "../passwords.ts";
import type { UserServiceContext } from "../user-context.ts";
import { INCORRECT_CREDENTIALS } from "./auth.ts";
import { callEm, callerAccount, callIdentity } from "./call.ts";

export const PASSWORDS_MISSING = "password or new password missing in request";
export const PASSWORD_NOT_CHANGED = "new password must be different from previous password";
export const PASSWORD_CHANGED_CONCURRENTLY = "the password was changed at the same time, try again";

export function passwordRoutes(svc: UserServiceContext): Partial<ServiceImpl<typeof AuthService>> {
  return {
    async changePassword(req, ctx) {
      const identity = callIdentity(ctx);
      if (req.password === "" || req.newPassword === "") {
        throw new ConnectError(PASSWORDS_MISSING, Code.InvalidArgument);
      }
      const em = callEm(ctx);
      const user = await callerAccount(em, ctx, { populate: ["passwordHash"] });
      if (!(await verifyPassword(user.passwordHash, req.password))) {
        throw new ConnectError(INCORRECT_CREDENTIALS, Code.Unauthenticated);
      }
      if (req.newPassword === req.password) throw new ConnectError(PASSWORD_NOT_CHANGED, Code.InvalidArgument);
      checkNewPassword(req.newPassword, { email: user.email });

      user.passwordHash = await hashPassword(req.newPassword);
      const now = new Date();
      const others = await em.find(Session, {
        user,
        id: { $ne: identity.sessionId },
        revokedAt: null,
        expiresAt: { $gt: now },
      });
      // The caller keeps its session with a fresh lifetime; everyone else who knew the old password is out.
      const current = await em.findOne(Session, { id: identity.sessionId, user, revokedAt: null });
      const tokenType = tokenTypeFor(user);
      const expiresAt = svc.tokens.expiresAtFor(tokenType, now);
      if (current) current.expiresAt = expiresAt;
      try {
        // The version column makes a concurrent change fail here instead of silently losing one of them.
        await revokeSessions(em, svc.revocations, others, now);
      } catch (err) {
        if (err instanceof OptimisticLockError) {
          throw new ConnectError(PASSWORD_CHANGED_CONCURRENTLY, Code.Aborted, undefined, undefined, err);
        }
        throw err;
      }
      const issued = await svc.tokens.issue(
        { sub: user.id, typ: tokenType, role: user.role, sid: identity.sessionId },
        expiresAt,
      );
      return { accessToken: toAccessTokenMessage(issued) };
    },
  };
}
