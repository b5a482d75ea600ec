import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";

/** An uploaded consumable file (its bytes in the object store under key). */
export const ConsumableFileSchema = defineEntity({
  name: "ConsumableFile",
  tableName: "consumable_file",
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    key: p.string().length(200),
    contentType: p.string().length(64),
    size: p.integer(),
    createdBy: p.uuid(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export class ConsumableFile extends ConsumableFileSchema.class {}
ConsumableFileSchema.setClass(ConsumableFile);

export const ConsumableSchema = defineEntity({
  name: "Consumable",
  tableName: "consumable",
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    name: p.string().length(100),
    tokenCost: p.integer(),
    fileId: p.uuid().nullable(),
    createdAt: p
      .datetime()
      .onCreate(() => new Date())
      .index(),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export class Consumable extends ConsumableSchema.class {}
ConsumableSchema.setClass(Consumable);

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
