// Who may enter a room (JoinRoom) and its live stage (AdmitToStage, and AdmitManyToStage for many callers at once,
// called by the social service's join streams and stage actions): one function, so they never disagree (issue 14).
// Who may see a room's details (every read about
// one room, here and in the services that answer about a room through AdmitViewer) is the same function without a
// password (issue 23): a caller the guest password admitted is remembered (RoomAdmission) until the password changes.
import { createHash } from "node:crypto";
import { Code, ConnectError } from "@connectrpc/connect";
import type { EntityManager } from "@mikro-orm/postgresql";
import { verifyGuestPassword } from "./guest-password.ts";
import { RoomAdmission } from "./room-admission.entity.ts";
import { isGlobal, type Member, rankOf } from "./room-rules.ts";
import type { Room } from "./room.entity.ts";
import { RoomUserRole } from "./room-user-role.entity.ts";

/** The room's guest password as an admission names it (empty when the room has none). */
function passwordTag(room: Room): string {
  return room.guestPasswordHash ? createHash("sha256").update(room.guestPasswordHash).digest("hex") : "";
}

/** Who an admission is for: the user's uuid, `g:` + a guest's token subject, empty for nobody in particular. */
function admissionKey(member: Member): string {
  if (member.userId !== "") return member.userId;
  return member.guest ? `g:${member.guest}` : "";
}

/** Whether the room's current guest password admitted this caller before. */
async function admittedBefore(em: EntityManager, room: Room, key: string): Promise<boolean> {
  const tag = passwordTag(room);
  if (key === "" || tag === "") return false;
  return (await em.count(RoomAdmission, { roomId: room.id, caller: key, passwordTag: tag })) > 0;
}

/** Remembers that the room's current guest password admitted this caller (one row per room and caller). */
async function rememberAdmission(em: EntityManager, room: Room, key: string): Promise<void> {
  if (key === "") return;
  await em.upsert(
    RoomAdmission,
    { roomId: room.id, caller: key, passwordTag: passwordTag(room), admittedAt: new Date() },
    { onConflictFields: ["roomId", "caller"], onConflictAction: "merge" },
  );
}

/** Who may enter a private room without its password: a role in it (dj and up) or a global role. */
export function isRoomMember(member: Member): boolean {
  return rankOf(member) >= 1 || member.grants.has("dj");
}

/**
 * Refuses (403, with the reason) a member who may not enter the room: banned, kicked (until when), or without a role
 * in a private room and without its guest password (or an admission of it, see admittedBefore). Global roles are
 * never refused. The right password is remembered for the member (user or guest).
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
    const key = admissionKey(member);
    const ok =
      guestPassword === ""
        ? await admittedBefore(em, room, key)
        : !!room.guestPasswordHash && (await verifyGuestPassword(room.guestPasswordHash, guestPassword));
    if (ok && guestPassword !== "") await rememberAdmission(em, room, key);
    if (!ok) {
      throw new ConnectError(
        guestPassword === "" ? "This room is private" : "Wrong guest password",
        Code.PermissionDenied,
      );
    }
  }
}

/**
 * May the caller see the room's details (issue 23)? A public room: anyone, as before. A private room: 401
 * "Unauthorized" for a caller who is nobody (no user, no guest), otherwise admit's rule without a password.
 */
export async function admitViewer(em: EntityManager, room: Room, member: Member): Promise<void> {
  if (room.type !== "PRIVATE") return;
  if (admissionKey(member) === "" && !isGlobal(member)) throw new ConnectError("Unauthorized", Code.Unauthenticated);
  await admit(em, room, member, "");
}
