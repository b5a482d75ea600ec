// The login throttle, called first thing by Login (routes/auth.ts): per account (the address tried, whether
// or not it has an account, so guessing at an unknown address costs the same) and per client address.
import type { HandlerContext } from "@connectrpc/connect";
import type { EntityManager } from "@mikro-orm/postgresql";
import { normalizeEmail } from "../../account-rules.ts";
import { loadContactConfig, type ContactConfig } from "./contact-config.ts";
import { accountAndAddress, enforceThrottles } from "./throttle.ts";

export const TOO_MANY_LOGINS = "too many login attempts, try again later";

const configs = new WeakMap<object, ContactConfig>();

export async function throttleLogin(
  svc: { env: Record<string, string | undefined> },
  em: EntityManager,
  ctx: HandlerContext,
  email: string,
): Promise<void> {
  let config = configs.get(svc);
  if (!config) {
    config = loadContactConfig(svc.env);
    configs.set(svc, config);
  }
  const windowSeconds = config.LOGIN_THROTTLE_WINDOW_SECONDS;
  const checks = accountAndAddress(
    ctx,
    normalizeEmail(email),
    { action: "login", limit: config.LOGIN_ATTEMPTS_PER_ACCOUNT, windowSeconds },
    { action: "login", limit: config.LOGIN_ATTEMPTS_PER_IP, windowSeconds },
  );
  await enforceThrottles(em, ctx, checks, TOO_MANY_LOGINS);
}
