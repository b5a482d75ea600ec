import { defineEntity, p } from "@mikro-orm/core";

/**
 * An Ed25519 key that signs access tokens. Retired keys stay until every token they signed has expired;
 * a key from JWT_PRIVATE_KEY is never stored here.
 */
export const SigningKeySchema = defineEntity({
  name: "SigningKey",
  properties: {
    kid: p.string().length(64).primary(),
    privateKeyPem: p.text().hidden(),
    publicJwk: p.json<Record<string, string>>(),
    createdAt: p.datetime().onCreate(() => new Date()),
    retiredAt: p.datetime().nullable(),
  },
});

export class SigningKey extends SigningKeySchema.class {}
SigningKeySchema.setClass(SigningKey);
