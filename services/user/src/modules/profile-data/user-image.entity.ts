import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";
import { UserSchema } from "../users/user.entity.ts";

/**
 * An uploaded profile or cover picture. The files themselves live in the object store under
 * `imageKey(id, size)`; the row only says whose it is and what kind.
 */
export const UserImageSchema = defineEntity({
  name: "UserImage",
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    user: () => p.manyToOne(UserSchema).deleteRule("cascade").index(),
    kind: p.string().length(16),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class UserImage extends UserImageSchema.class {}
UserImageSchema.setClass(UserImage);
