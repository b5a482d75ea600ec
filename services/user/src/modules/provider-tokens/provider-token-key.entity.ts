import { defineEntity, p } from "@mikro-orm/core";

/**
 * The generated encryption key for provider tokens, used only when PROVIDER_TOKEN_KEY is unset
 * (development): stored so every replica and every restart decrypts what another one wrote.
 */
export const ProviderTokenKeySchema = defineEntity({
  name: "ProviderTokenKey",
  properties: {
    id: p.string().length(32).primary(),
    /** 32 random bytes, base64. */
    key: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class ProviderTokenKey extends ProviderTokenKeySchema.class {}
ProviderTokenKeySchema.setClass(ProviderTokenKey);
