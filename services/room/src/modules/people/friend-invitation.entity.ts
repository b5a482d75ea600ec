import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";

/** A friend invitation; at most one pending per pair (either way round), enforced in the handler under a pair lock. */
export const FriendInvitationSchema = defineEntity({
  name: "FriendInvitation",
  tableName: "friend_invitation",
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    fromUserId: p.uuid().index(),
    toUserId: p.uuid().index(),
    /** pending, accepted or rejected (InvitationStatus wire names). */
    status: p.string().length(16),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});

export class FriendInvitation extends FriendInvitationSchema.class {}
FriendInvitationSchema.setClass(FriendInvitation);
