// The first administrator, from ADMIN_EMAIL / ADMIN_PASSWORD, so a fresh installation can be managed.
import { ConnectError } from "@connectrpc/connect";
import { UniqueConstraintViolationException } from "@mikro-orm/core";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { Logger } from "pino";
import { checkEmail, checkNewPassword, nicknameFor } from "./account-rules.ts";
import { createAccount } from "./modules/users/create-account.ts";
import { User } from "./modules/users/user.entity.ts";
import { hashPassword } from "./passwords.ts";

export type AdminBootstrapResult = "created" | "exists" | "skipped";

/**
 * Creates the admin account when it does not exist. An existing account is left exactly as it is: the
 * environment must never reset a password an administrator has since changed, nor its role.
 */
export async function bootstrapAdmin(
  em: EntityManager,
  logger: Logger,
  admin: { email?: string; password?: string },
): Promise<AdminBootstrapResult> {
  if (admin.email === undefined || admin.password === undefined) return "skipped";
  let email: string;
  try {
    email = checkEmail(admin.email);
    checkNewPassword(admin.password, { email });
  } catch (err) {
    const reason = err instanceof ConnectError ? err.rawMessage : String(err);
    throw new Error(`ADMIN_EMAIL / ADMIN_PASSWORD: ${reason}`, { cause: err });
  }
  const fork = em.fork();
  if ((await fork.count(User, { email })) > 0) {
    logger.info({ email }, "admin account exists, left unchanged");
    return "exists";
  }
  createAccount(fork, {
    email,
    passwordHash: await hashPassword(admin.password),
    role: "admin",
    nickname: nicknameFor("", email),
  });
  try {
    await fork.flush();
  } catch (err) {
    // Another instance created it between our check and our insert: that is the outcome we wanted.
    if (err instanceof UniqueConstraintViolationException) return "exists";
    throw err;
  }
  logger.info({ email }, "admin account created");
  return "created";
}
