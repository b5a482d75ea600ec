import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";

/** An account. `email` is stored lower-cased so the unique index also catches case variants. */
export const UserSchema = defineEntity({
  name: "User",
  // "user" is a reserved word in PostgreSQL; a plural table name avoids quoting everywhere.
  tableName: "users",
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    email: p.string().length(320).unique(),
    passwordHash: p.text().hidden().lazy(),
    role: p.string().length(32).default("user"),
    capabilities: p.array().default([]),
    badges: p.array().default([]),
    /** The payment service's level for the user's active subscription ("" when none), from its events. */
    subscriptionLevel: p.string().length(50).default(""),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
    version: p.integer().version(),
  },
});

export class User extends UserSchema.class {}
UserSchema.setClass(User);
