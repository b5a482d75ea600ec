// Who may enter a room (JoinRoom) and its live stage (AdmitToStage, called by the social service's join stream and
// stage actions): one function, so the two never disagree (issue 14).
import { Code, ConnectError } from "@connectrpc/connect";
import type { EntityManager } from "@mikro-orm/postgresql";
import { verifyGuestPassword } from "./guest-password.ts";
import { isGlobal, type Member, rankOf } from "./room-rules.ts";
import type { Room } from "./room.entity.ts";
import { RoomUserRole } from "./room-user-role.entity.ts";

/** Who may enter a private room without its password: a role in it (dj and up) or a global role. */
export function isRoomMember(member: Member): boolean {
  return rankOf(member) >= 1 || member.grants.has("dj");
}

/**
 * Refuses (403, with the reason) a member who may not enter the room: banned, kicked (until when), or without a role
 * in a private room and without its guest password. Global roles are never refused.
 */
export async function admit(em: EntityManager, room: Room, member: Member, guestPassword: string): Promise<void> {
  if (!isGlobal(member)) {
    if (member.grants.has("banned")) {
      throw new ConnectError("You are banned from this room", Code.PermissionDenied);
    }
    if (member.grants.has("kicked")) {
      const kick = (await em.find(RoomUserRole, { roomId: room.id, userId: member.userId, role: "kicked" }))[0];
      const until = kick?.expiresAt ? `until ${kick.expiresAt.toISOString()}` : "until further notice";
      throw new ConnectError(`You are kicked from this room ${until}`, Code.PermissionDenied);
    }
  }
  if (room.type === "PRIVATE" && !isRoomMember(member)) {
    const ok =
      guestPassword !== "" &&
      !!room.guestPasswordHash &&
      (await verifyGuestPassword(room.guestPasswordHash, guestPassword));
    if (!ok) {
      throw new ConnectError(
        guestPassword === "" ? "This room is private" : "Wrong guest password",
        Code.PermissionDenied,
      );
    }
  }
}
