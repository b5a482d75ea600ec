import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";

/**
 * A room. Enumerations are stored as their wire names (PUBLIC, CLUB, EVERYONE …). The guest password is kept as an
 * argon2 hash for verification and a keyed lookup hash (HMAC) so POST /rooms/list finds the matching rooms without
 * trying every hash. `playedSeconds` adds up the time the room was live; `liveSince` is set while it is live.
 */
export const RoomSchema = defineEntity({
  name: "Room",
  tableName: "room",
  indexes: [
    // The directory (GET /rooms/public): public rooms, live first, then newest.
    { name: "room_directory_index", properties: ["type", "isLive", "createdAt", "id"] },
    // The directory's total and the private count: a narrow index they can count from (index-only scans).
    { name: "room_type_index", properties: ["type"] },
    // Promoted rooms (GET /rooms/promoted-rooms), newest promotion first.
    { name: "room_promoted_index", properties: ["promoted", "promotedAt", "id"] },
    // A user's rooms (owned list), newest first.
    { name: "room_owner_index", properties: ["ownerId", "createdAt", "id"] },
    // Whether any room changed since the room lists' snapshot was loaded (the latest change).
    { name: "room_updated_index", properties: ["updatedAt"] },
  ],
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    slug: p.string().length(100).unique(),
    name: p.string().length(80),
    description: p.text().default(""),
    ownerId: p.uuid(),
    type: p.string().length(16),
    design: p.string().length(32),
    djType: p.string().length(32),
    numberOfDjs: p.integer(),
    isLive: p.boolean().default(false),
    liveSince: p.datetime().nullable(),
    playedSeconds: p.bigint("number").default(0),
    liveAudio: p.boolean().default(false),
    pinnedMessages: p.json<string[]>(),
    posterKey: p.string().length(200).nullable(),
    externalUrl: p.string().length(2048).nullable(),
    discordGuild: p.string().length(32).nullable().index(),
    guestPasswordHash: p.string().length(255).nullable(),
    guestPasswordLookup: p.string().length(64).nullable().index(),
    promoted: p.boolean().default(false),
    promotedAt: p.datetime().nullable(),
    musicProviders: p.array(),
    conversationClearedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export class Room extends RoomSchema.class {}
RoomSchema.setClass(Room);
