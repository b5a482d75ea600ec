import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";

/** A community (spec 001 §3): users and rooms grouped under a unique slug; managed by its owner and the admins. */
export const CommunitySchema = defineEntity({
  name: "Community",
  tableName: "community",
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    name: p.string().length(100),
    slug: p.string().length(100).unique(),
    description: p.text().default(""),
    imageUrl: p.string().length(2048).nullable(),
    ownerId: p.uuid().index(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});

export class Community extends CommunitySchema.class {}
CommunitySchema.setClass(Community);
