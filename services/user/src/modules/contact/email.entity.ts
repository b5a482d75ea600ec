import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";

/**
 * One e-mail address of an account (spec 000 §3). The account's sign-in address stays in users.email; its row
 * here (primary) carries the verification state. The pending code is kept hashed, never in clear.
 */
export const EmailSchema = defineEntity({
  name: "Email",
  tableName: "email",
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    userId: p.uuid().index(),
    /** Lower-cased, like users.email. */
    email: p.string().length(320).index(),
    type: p.string().length(16),
    status: p.string().length(32),
    primary: p.boolean().default(false),
    codeHash: p.text().nullable().hidden(),
    codeExpiresAt: p.datetime().nullable(),
    codeAttempts: p.integer().default(0),
    verifiedAt: p.datetime().nullable(),
    verificationSentAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});

export class Email extends EmailSchema.class {}
EmailSchema.setClass(Email);
