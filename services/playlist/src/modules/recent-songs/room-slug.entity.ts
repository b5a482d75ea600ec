import { defineEntity, p } from "@mikro-orm/core";

/** Which room a slug names now (the newest post for the slug wins; a renamed room's old slug keeps pointing at it). */
export const RoomSlugSchema = defineEntity({
  name: "RoomSlug",
  tableName: "room_slug",
  properties: {
    slug: p.string().length(100).primary(),
    roomUuid: p.uuid().index(),
    updatedAt: p.datetime(),
  },
});

export class RoomSlug extends RoomSlugSchema.class {}
RoomSlugSchema.setClass(RoomSlug);
