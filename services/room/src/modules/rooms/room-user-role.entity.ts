import { randomUUID } from "node:crypto";
import { defineEntity, p } from "@mikro-orm/core";

/**
 * A role granted to a user in a room (coOwner, moderator, dj, banned, kicked, chatDisabled, djDisabled; the owner
 * is the room's ownerId). At most one grant per room, user and role: granting again replaces the expiry. A grant
 * whose expiresAt has passed has no effect (readers compare it with the clock); it stays until replaced or removed.
 */
export const RoomUserRoleSchema = defineEntity({
  name: "RoomUserRole",
  tableName: "room_user_role",
  uniques: [{ name: "room_user_role_room_user_role_unique", properties: ["roomId", "userId", "role"] }],
  indexes: [
    { name: "room_user_role_user_index", properties: ["userId", "role"] },
    { name: "room_user_role_role_index", properties: ["role", "createdAt", "id"] },
  ],
  properties: {
    id: p
      .uuid()
      .primary()
      .onCreate(() => randomUUID()),
    roomId: p.uuid(),
    userId: p.uuid(),
    role: p.string().length(32),
    expiresAt: p.datetime().nullable(),
    grantedBy: p.uuid().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export class RoomUserRole extends RoomUserRoleSchema.class {}
RoomUserRoleSchema.setClass(RoomUserRole);

/** Whether a grant has effect at `now`: no expiry, or one still ahead. */
export function isGrantActive(grant: { expiresAt?: Date | null }, now = new Date()): boolean {
  return grant.expiresAt === null || grant.expiresAt === undefined || grant.expiresAt > now;
}
