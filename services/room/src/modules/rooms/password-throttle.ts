// Guesses at private rooms' guest passwords (issue 23): every password check (JoinRoom by a caller without a
// role in the private room, POST /rooms/list) counts against the caller and the caller's address; a join also
// against the room, so many fresh guest tokens from many addresses still get few guesses at one room. Checks are
// counted before the password is verified, so a throttled caller learns nothing and many guesses sent at once cannot
// slip past the count (a refusal also skips the argon2 verification); a right password gives its hits back
// (refundThrottles), so only wrong guesses spend the budget and a room's guests are never held back by it.
import type { HandlerContext } from "@connectrpc/connect";
import { callIdentity, subjectAndAddress, type ThrottleCheck, type ThrottleRule } from "@tt/kit";
import type { LimitsConfig } from "../../limits-config.ts";
import { isRoomMember } from "./admission.ts";
import type { Member } from "./room-rules.ts";
import type { Room } from "./room.entity.ts";

export const TOO_MANY_GUESSES = "too many password attempts, try again later";

/** Whether entering `room` checks the given guest password (a private room, a caller without a role in it). */
export function checksGuestPassword(room: Room, member: Member, guestPassword: string): boolean {
  return room.type === "PRIVATE" && guestPassword !== "" && !isRoomMember(member);
}

function rule(limits: LimitsConfig, scope: "caller" | "address" | "room"): ThrottleRule {
  const limit = {
    caller: limits.ROOM_PASSWORD_GUESSES_PER_CALLER,
    address: limits.ROOM_PASSWORD_GUESSES_PER_ADDRESS,
    room: limits.ROOM_PASSWORD_GUESSES_PER_ROOM,
  }[scope];
  return { action: `room-password-${scope}`, limit, windowSeconds: limits.ROOM_PASSWORD_GUESS_WINDOW_SECONDS };
}

/** The checks of one password guess by the caller, at `roomId` when the guess names a room. */
export function passwordGuessChecks(ctx: HandlerContext, limits: LimitsConfig, roomId?: string): ThrottleCheck[] {
  const identity = callIdentity(ctx);
  const checks = subjectAndAddress(
    ctx,
    `${identity.tokenType}:${identity.subject}`,
    rule(limits, "caller"),
    rule(limits, "address"),
  );
  if (roomId !== undefined) checks.push({ rule: rule(limits, "room"), subject: `room:${roomId}` });
  return checks;
}

/**
 * The checks of a guess the social service passes on (AdmitToStage, from a join stream): the caller is a service,
 * so the room and the user it names (same keys as JoinRoom's), not the address; a guest only by the room.
 */
export function stagePasswordGuessChecks(limits: LimitsConfig, roomId: string, userId: string): ThrottleCheck[] {
  const checks: ThrottleCheck[] = [{ rule: rule(limits, "room"), subject: `room:${roomId}` }];
  if (userId !== "") checks.push({ rule: rule(limits, "caller"), subject: `user:${userId}` });
  return checks;
}
