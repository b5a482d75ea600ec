import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";

/** userId blocked blockedUserId. */
export const BlockedUserSchema = defineEntity({
  name: "BlockedUser",
  tableName: "blocked_user",
  uniques: [{ properties: ["userId", "blockedUserId"] }],
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    userId: p.uuid(),
    blockedUserId: p.uuid().index(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class BlockedUser extends BlockedUserSchema.class {}
BlockedUserSchema.setClass(BlockedUser);
