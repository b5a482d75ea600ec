// Reset codes and magic-link tokens: random, stored only as sha256, short-lived and spent once.
import { createHash, randomBytes } from "node:crypto";
import { LockMode } from "@mikro-orm/core";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { User } from "../users/user.entity.ts";
import { AccountToken } from "./account-token.entity.ts";

export type AccountTokenPurpose = "reset" | "magic-link";

/** 256 bits from the CSPRNG, URL-safe so it can sit in a link path unescaped. */
export function newSecret(): { secret: string; hash: string } {
  const secret = randomBytes(32).toString("base64url");
  return { secret, hash: hashSecret(secret) };
}

export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

/** Records a new token for `user` (persisted with the next flush) and returns the secret to send. */
export function createAccountToken(
  em: EntityManager,
  user: User,
  purpose: AccountTokenPurpose,
  ttlSeconds: number,
  now = new Date(),
  secret = newSecret(),
): { secret: string; token: AccountToken } {
  const token = em.create(AccountToken, {
    user,
    purpose,
    tokenHash: secret.hash,
    createdAt: now,
    expiresAt: new Date(now.getTime() + ttlSeconds * 1000),
    usedAt: null,
  });
  return { secret: secret.secret, token };
}

/**
 * Marks the token as used and answers it, or null when it is unknown, spent or expired. Must run inside a
 * transaction: the row lock makes a concurrent second use wait, then find it spent.
 */
export async function spendAccountToken(
  em: EntityManager,
  secret: string,
  purpose: AccountTokenPurpose,
  now = new Date(),
): Promise<AccountToken | null> {
  if (secret === "" || secret.length > 128) return null;
  const token = await em.findOne(
    AccountToken,
    { tokenHash: hashSecret(secret), purpose, usedAt: null, expiresAt: { $gt: now } },
    { lockMode: LockMode.PESSIMISTIC_WRITE, populate: ["user"] },
  );
  if (!token) return null;
  token.usedAt = now;
  return token;
}
