import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";

/** A room linked to a community (the room is the rooms area's row, by id). */
export const CommunityRoomSchema = defineEntity({
  name: "CommunityRoom",
  tableName: "community_room",
  uniques: [{ properties: ["communityId", "roomId"] }],
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    communityId: p.uuid(),
    roomId: p.uuid().index(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class CommunityRoom extends CommunityRoomSchema.class {}
CommunityRoomSchema.setClass(CommunityRoom);
