import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";
import { AvatarSchema } from "./avatar.entity.ts";

/** A user's avatar (its id is the avatarAssignmentId); one per user and avatar. */
export const AvatarAssignmentSchema = defineEntity({
  name: "AvatarAssignment",
  tableName: "avatar_assignment",
  uniques: [{ properties: ["avatar", "userUuid"] }],
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    avatar: () => p.manyToOne(AvatarSchema).deleteRule("cascade"),
    userUuid: p.uuid().index(),
    /** AvatarAssignmentType wire name. */
    type: p.string().length(20),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export class AvatarAssignment extends AvatarAssignmentSchema.class {}
AvatarAssignmentSchema.setClass(AvatarAssignment);
