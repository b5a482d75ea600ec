import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";
import { UserSchema } from "../users/user.entity.ts";

/**
 * One linked music-provider account of a user. Tokens are stored only encrypted (token-cipher.ts); the
 * refresh token never leaves the service. `variant` separates SoundCloud's web and mobile apps, whose
 * refresh tokens only work with the client that issued them.
 */
export const ProviderTokenSchema = defineEntity({
  name: "ProviderToken",
  uniques: [{ properties: ["user", "provider", "variant"] }],
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    user: () => p.manyToOne(UserSchema).deleteRule("cascade"),
    /** apple, soundcloud, spotify or youtube. */
    provider: p.string().length(32),
    /** web or mobile. */
    variant: p.string().length(16).default("web"),
    accessTokenEnc: p.text(),
    refreshTokenEnc: p.text().nullable(),
    expiresAt: p.datetime().nullable(),
    scope: p.text().default(""),
    providerUserId: p.string().length(255).nullable(),
    providerDisplayName: p.string().length(255).nullable(),
    product: p.string().length(32).nullable(),
    /** The e-mail the provider reported (Spotify), kept for the spotify e-mail record. */
    providerEmail: p.string().length(320).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});

export class ProviderToken extends ProviderTokenSchema.class {}
ProviderTokenSchema.setClass(ProviderToken);
