// Admin: one account in full, accounts made by staff, and setting another user's password.
import { getOption } from "@bufbuild/protobuf";
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import { field as fieldRules } from "@tt/proto/tt/options/v1/field_pb";
import { AdminSignUpRequestSchema, type AccountService } from "@tt/proto/tt/user/v1/account_service_pb";
import { checkUuid } from "@tt/kit";
import {
  EMAIL_ALREADY_REGISTERED,
  MISSING_CREDENTIALS,
  checkEmail,
  checkNewPassword,
  nicknameFor,
} from "../account-rules.ts";
import type { AccountView } from "../modules/accounts/account-message.ts";
import { createAccount, flushNewAccount } from "../modules/users/create-account.ts";
import { User } from "../modules/users/user.entity.ts";
import { hashPassword } from "../passwords.ts";
import type { UserServiceContext } from "../user-context.ts";
import { revokeOtherSessions, USER_NOT_FOUND } from "./accounts-shared.ts";
import { callEm } from "./call.ts";

/**
 * Roles an admin may give at sign-up; superUser is never handed out through the API. Declared once, as the
 * `in` rule of AdminSignUpRequest.role (the input-rules interceptor refuses any other before the handler); the
 * handler checks again, as this is what keeps superUser out.
 */
export const ADMIN_SIGN_UP_ROLES: readonly string[] = getOption(AdminSignUpRequestSchema.field.role, fieldRules).in;
export const NEW_PASSWORD_MISSING = "uuid or new password missing in request";

export function accountAdminRoutes(
  svc: UserServiceContext,
  view: AccountView,
): Partial<ServiceImpl<typeof AccountService>> {
  return {
    async adminGetUser(req, ctx) {
      // A uuid: the field's declared rule (uuid, required) refused anything else before the handler.
      const id = req.id.toLowerCase();
      const em = callEm(ctx);
      const user = await em.findOne(User, { id });
      if (!user) throw new ConnectError(USER_NOT_FOUND, Code.NotFound);
      return { user: await view(em, user) };
    },

    async adminSignUp(req, ctx) {
      if (req.email.trim() === "" || req.password === "") {
        throw new ConnectError(MISSING_CREDENTIALS, Code.InvalidArgument);
      }
      const email = checkEmail(req.email);
      const nickname = nicknameFor(req.nickname, email);
      checkNewPassword(req.password, { email, nickname });
      const role = req.role === "" ? "user" : req.role;
      if (!ADMIN_SIGN_UP_ROLES.includes(role)) {
        throw new ConnectError(`role must be one of ${ADMIN_SIGN_UP_ROLES.join(", ")}`, Code.InvalidArgument);
      }
      const em = callEm(ctx);
      if ((await em.count(User, { email })) > 0) {
        throw new ConnectError(EMAIL_ALREADY_REGISTERED, Code.PermissionDenied);
      }
      const passwordHash = await hashPassword(req.password);
      // No session: the admin stays signed in as themself.
      // Staff vouch for the address: it counts as verified without a code.
      const emailKind = { type: "personal", status: "CREATED_BY_ADMIN" } as const;
      const { user } = createAccount(em, { email, passwordHash, role, nickname, emailKind });
      await flushNewAccount(em);
      return { user: await view(em, user) };
    },

    async adminChangePassword(req, ctx) {
      if (req.uuid === "" || req.newPassword === "") {
        throw new ConnectError(NEW_PASSWORD_MISSING, Code.InvalidArgument);
      }
      const id = checkUuid(req.uuid, "uuid");
      checkNewPassword(req.newPassword);
      const em = callEm(ctx);
      const user = await em.findOne(User, { id });
      if (!user) throw new ConnectError(USER_NOT_FOUND, Code.NotFound);
      checkNewPassword(req.newPassword, { email: user.email });
      user.passwordHash = await hashPassword(req.newPassword);
      // Whoever knew the old password (or holds a token from it) is out; the user signs in with the new one.
      await revokeOtherSessions(em, svc.revocations, user, null);
      svc.logger.info({ userUuid: user.id }, "password set by an admin");
      return {};
    },
  };
}
