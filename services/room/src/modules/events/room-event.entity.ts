import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";

/** An event (spec 001 §3 "event (has a slug)"): a dated happening, optionally in a room. */
export const RoomEventSchema = defineEntity({
  name: "RoomEvent",
  tableName: "room_event",
  indexes: [{ properties: ["startsAt", "id"] }],
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    slug: p.string().length(120).unique(),
    name: p.string().length(120),
    description: p.text().default(""),
    roomId: p.uuid().nullable().index(),
    startsAt: p.datetime(),
    endsAt: p.datetime().index(),
    imageUrl: p.string().length(2048).nullable(),
    createdBy: p.uuid().index(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});

export class RoomEvent extends RoomEventSchema.class {}
RoomEventSchema.setClass(RoomEvent);
