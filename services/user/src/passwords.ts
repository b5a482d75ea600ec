// Password hashing with argon2id. The parameters are OWASP's minimum for argon2id (19 MiB, 2 passes, 1 lane):
// safe, and cheap enough that a login costs tens of milliseconds rather than seconds.
import { hash, verify } from "@node-rs/argon2";

export const PASSWORD_HASH_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * A hash of a random password nobody knows, made with PASSWORD_HASH_OPTIONS. Logging in with an unknown
 * e-mail verifies against it so that the answer takes as long as for a wrong password: the timing must not
 * tell whether an address has an account. A test keeps its parameters in step with PASSWORD_HASH_OPTIONS.
 */
export const DUMMY_PASSWORD_HASH =
  "$argon2id$v=19$m=19456,t=2,p=1$4Qz0CPvDNsRxhbwhPxhr0Q$5h3iB0WJR3Sv5Otu+XrJTFEaNIQ9FErRoPxofqzHhTE";

let hashesComputed = 0;

/**
 * How many password hashes this process has computed. Each costs 19 MiB and tens of milliseconds, so a path
 * that hashes for an unauthenticated caller is a lever for exhausting the service; tests use the count to
 * prove that refused requests (a wrong reset code, say) never reach argon2.
 */
export function passwordHashesComputed(): number {
  return hashesComputed;
}

export function hashPassword(password: string): Promise<string> {
  hashesComputed++;
  // argon2id is the library's default algorithm; its const enum `Algorithm` is not importable under
  // isolatedModules, so it is left implicit.
  return hash(password, PASSWORD_HASH_OPTIONS);
}

/** True when `password` matches `passwordHash`. A malformed stored hash counts as a mismatch. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/**
 * Checks a password against an account that may not exist. Without an account it still spends one argon2
 * verification (against DUMMY_PASSWORD_HASH) and answers false.
 */
export async function verifyPasswordOrDummy(passwordHash: string | undefined, password: string): Promise<boolean> {
  if (passwordHash === undefined) {
    await verifyPassword(DUMMY_PASSWORD_HASH, password);
    return false;
  }
  return verifyPassword(passwordHash, password);
}
