import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";
import { UserSchema } from "../users/user.entity.ts";

/**
 * A short-lived, single-use secret sent to a user: a password-reset code or a magic-link token. Only its
 * sha256 is stored, so a database leak cannot be replayed; `usedAt` is set in the transaction that spends it.
 */
export const AccountTokenSchema = defineEntity({
  name: "AccountToken",
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    user: () => p.manyToOne(UserSchema).index().deleteRule("cascade"),
    /** reset or magic-link. */
    purpose: p.string().length(16),
    /** Hex sha256 of the secret. */
    tokenHash: p.string().length(64).unique(),
    createdAt: p.datetime().onCreate(() => new Date()),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
  },
});

export class AccountToken extends AccountTokenSchema.class {}
AccountTokenSchema.setClass(AccountToken);
