import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";

/** An avatar, identified by its slug (specification 000 §3). The image lives in the object store under imageKey. */
export const AvatarSchema = defineEntity({
  name: "Avatar",
  tableName: "avatar",
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    slug: p.string().length(64).unique(),
    name: p.string().length(100),
    /** AvatarStatus wire name. */
    status: p.string().length(20),
    discordOnly: p.boolean().default(false),
    tokenCost: p.integer().default(0),
    seasonId: p.uuid().nullable().index(),
    minPoints: p.integer().default(0),
    imageKey: p.string().length(200).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export class Avatar extends AvatarSchema.class {}
AvatarSchema.setClass(Avatar);
