import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";

export const TokenBundleSchema = defineEntity({
  name: "TokenBundle",
  tableName: "token_bundle",
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    productId: p.string().length(100).unique(),
    name: p.string().length(100),
    tokens: p.integer(),
    thumbnailKey: p.string().length(200).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export class TokenBundle extends TokenBundleSchema.class {}
TokenBundleSchema.setClass(TokenBundle);
