import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";

/** A user's membership of a community. */
export const CommunityMemberSchema = defineEntity({
  name: "CommunityMember",
  tableName: "community_member",
  uniques: [{ properties: ["communityId", "userId"] }],
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    communityId: p.uuid(),
    userId: p.uuid().index(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class CommunityMember extends CommunityMemberSchema.class {}
CommunityMemberSchema.setClass(CommunityMember);
