import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";

/** A user's latest visit of a room (one row per user and room, its time moved on each join or POST /rooms/recent). */
export const RoomVisitSchema = defineEntity({
  name: "RoomVisit",
  tableName: "room_visit",
  uniques: [{ name: "room_visit_user_room_unique", properties: ["userId", "roomId"] }],
  indexes: [
    { name: "room_visit_user_index", properties: ["userId", "visitedAt"] },
    { name: "room_visit_room_index", properties: ["roomId", "visitedAt"] },
  ],
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    userId: p.uuid(),
    roomId: p.uuid(),
    visitedAt: p.datetime(),
  },
});
export class RoomVisit extends RoomVisitSchema.class {}
RoomVisitSchema.setClass(RoomVisit);
