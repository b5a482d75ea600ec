import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";
import { UserSchema } from "../users/user.entity.ts";

/**
 * A signed-in session: every access token carries its id (`sid`). Guest sessions have no row; they are not
 * tied to an account and nothing needs to list or revoke them.
 */
export const SessionSchema = defineEntity({
  name: "Session",
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    user: () => p.manyToOne(UserSchema).index().deleteRule("cascade"),
    tokenType: p.string().length(16),
    createdAt: p.datetime().onCreate(() => new Date()),
    expiresAt: p.datetime(),
    revokedAt: p.datetime().nullable(),
    userAgent: p.text().nullable(),
  },
});

export class Session extends SessionSchema.class {}
SessionSchema.setClass(Session);
