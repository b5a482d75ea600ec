import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";
import { UserSchema } from "../users/user.entity.ts";

/** A note moderators keep about a user; removed with the account it is about. */
export const ModerationCommentSchema = defineEntity({
  name: "ModerationComment",
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    user: () => p.manyToOne(UserSchema).deleteRule("cascade"),
    // A plain uuid, not a foreign key: the note stays when its author's account is gone.
    authorId: p.uuid(),
    comment: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
  // The list reads one user's notes newest first.
  indexes: [{ properties: ["user", "createdAt"] }],
});

export class ModerationComment extends ModerationCommentSchema.class {}
ModerationCommentSchema.setClass(ModerationComment);
