import { defineEntity, p } from "@mikro-orm/core";

/**
 * Every slug a room has had, its current one included: a renamed room keeps answering to its earlier slugs, and no
 * other room can take them.
 */
export const RoomSlugSchema = defineEntity({
  name: "RoomSlug",
  tableName: "room_slug",
  properties: {
    slug: p.string().length(100).primary(),
    roomId: p.uuid().index(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export class RoomSlug extends RoomSlugSchema.class {}
RoomSlugSchema.setClass(RoomSlug);
