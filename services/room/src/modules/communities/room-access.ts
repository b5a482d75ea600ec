// the people part's one window on the rooms area: whether a room exists and whether a user manages it (its owner,
// a co-owner or a moderator, grants in effect only). Same service, same schema: it reads the rooms area through
// the rooms area's own functions.
import type { EntityManager } from "@mikro-orm/postgresql";
import { isUuid } from "@tt/kit";
import { rankOf } from "../rooms/room-rules.ts";
import { memberOf } from "../rooms/room-store.ts";
import { Room } from "../rooms/room.entity.ts";

export interface RoomAccess {
  ownerId: string;
  /** Whether the user is the owner, a co-owner or a moderator of the room. */
  manages: boolean;
}

/** The room's access for `userId` (a room uuid), or undefined when there is no such room. */
export async function roomAccessOf(em: EntityManager, roomId: string, userId: string): Promise<RoomAccess | undefined> {
  if (!isUuid(roomId)) return undefined;
  const room = await em.findOne(Room, { id: roomId.toLowerCase() });
  if (!room) return undefined;
  // The account role does not count here: the global roles' powers are the callers' own checks (isStaff).
  const member = await memberOf(em, room, userId, "user");
  return { ownerId: room.ownerId, manages: rankOf(member) >= 1 };
}
