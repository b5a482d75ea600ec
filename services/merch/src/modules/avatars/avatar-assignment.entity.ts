import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";
import { AvatarSchema } from "./avatar.entity.ts";

/**
 * A user's avatar (its id is the avatarAssignmentId); one per user and avatar. A purchase keeps its
 * Idempotency-Key and the request's hash, so a retry answers the first answer (and another body is 422).
 */
export const AvatarAssignmentSchema = defineEntity({
  name: "AvatarAssignment",
  tableName: "avatar_assignment",
  uniques: [{ properties: ["avatar", "userUuid"] }, { properties: ["userUuid", "idempotencyKey"] }],
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
    idempotencyKey: p.string().length(255).nullable(),
    requestHash: p.string().length(64).nullable(),
  },
});
export class AvatarAssignment extends AvatarAssignmentSchema.class {}
AvatarAssignmentSchema.setClass(AvatarAssignment);
