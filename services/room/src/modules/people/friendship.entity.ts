import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";

/** One direction of a mutual friendship: both rows exist or neither (written in one flush). */
export const FriendshipSchema = defineEntity({
  name: "Friendship",
  tableName: "friendship",
  uniques: [{ properties: ["userId", "friendId"] }],
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    userId: p.uuid(),
    friendId: p.uuid().index(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class Friendship extends FriendshipSchema.class {}
FriendshipSchema.setClass(Friendship);
