// What every rooms and roles handler shares: the call's room by id, the caller's standing, the rank checks with
// their 403 messages, paging, and the wire view.
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type { EntityManager } from "@mikro-orm/postgresql";
import { callEm, callIdentity, checkLimit } from "@tt/kit";
import type { Room as RoomMessage } from "@tt/proto/tt/room/v1/room_pb";
import type { RoomServiceContext } from "../context.ts";
import { admitViewer } from "../modules/rooms/admission.ts";
import { MAX_MUSIC_PROVIDERS, type Member, rankOf } from "../modules/rooms/room-rules.ts";
import { callerMember, requireRoom, toRoomMessage } from "../modules/rooms/room-store.ts";
import type { Room } from "../modules/rooms/room.entity.ts";

export const INSUFFICIENT_ROLE = "Insufficient room role";

/** Ranks the calls need: moderators and above, the owner's deputies (co-owners), the owner. */
export const MODERATOR = 1;
export const CO_OWNER = 2;
export const OWNER = 3;

/** 403 unless the member's rank reaches `min`. */
export function requireRank(member: Member, min: number, message = INSUFFICIENT_ROLE): void {
  if (rankOf(member) < min) throw new ConnectError(message, Code.PermissionDenied);
}

/** The room of the call (uuid or slug), the caller's standing in it, the call's EntityManager. */
export async function roomAndCaller(
  ctx: HandlerContext,
  id: string,
): Promise<{ em: EntityManager; room: Room; member: Member }> {
  const em = callEm(ctx);
  const room = await requireRoom(em, id);
  return { em, room, member: await callerMember(em, ctx, room) };
}

/**
 * The room of a read about one room (uuid or slug), once the caller may see it (issue 23, admission.ts admitViewer):
 * a private room answers 401 without a token, 403 to a caller it has not admitted. Services (who ask on someone's
 * behalf and apply the rule themselves, through AdmitViewer) pass. Runs before the call's input checks.
 */
export async function viewRoom(ctx: HandlerContext, id: string): Promise<{ em: EntityManager; room: Room }> {
  const em = callEm(ctx);
  const room = await requireRoom(em, id);
  await requireViewer(ctx, em, room);
  return { em, room };
}

/** 401/403 unless the caller may see the room (see viewRoom). */
export async function requireViewer(ctx: HandlerContext, em: EntityManager, room: Room): Promise<void> {
  if (callIdentity(ctx).tokenType === "service") return;
  await admitViewer(em, room, await callerMember(em, ctx, room));
}

/** The caller's user uuid (user and bot tokens). */
export function callerUserId(ctx: HandlerContext): string {
  return callIdentity(ctx).subject;
}

/** limit (1–max, `fallback` when 0) and offset (≥ 0). */
export function paging(svc: RoomServiceContext, limit: number, offset: number, fallback = 20) {
  const max = svc.areas.rooms.ROOM_LIST_MAX_LIMIT;
  const l = checkLimit(limit, Math.min(fallback, max), max);
  if (!Number.isInteger(offset) || offset < 0)
    throw new ConnectError("offset must be at least 0", Code.InvalidArgument);
  return { limit: l, offset };
}

/** take (1–max, `fallback` when 0) and skip (≥ 0). */
export function takeSkip(svc: RoomServiceContext, take: number, skip: number, fallback = 100) {
  const max = svc.areas.rooms.ROOM_LIST_MAX_LIMIT;
  const t = checkLimit(take, Math.min(fallback, max), max, "take");
  if (!Number.isInteger(skip) || skip < 0) throw new ConnectError("skip must be at least 0", Code.InvalidArgument);
  return { limit: t, offset: skip };
}

export function viewOf(svc: RoomServiceContext): (room: Room) => RoomMessage {
  return (room) => toRoomMessage(room, svc.areas.poster.MEDIA_BASE_URL);
}

/** A list of MusicProvider wire names, capped and without repeats (the field rules' in_enum refused unknown names). */
export function checkProviders(providers: readonly string[], field = "musicProviders"): string[] {
  if (providers.length > MAX_MUSIC_PROVIDERS) {
    throw new ConnectError(`${field} must hold at most ${MAX_MUSIC_PROVIDERS} providers`, Code.InvalidArgument);
  }
  return [...new Set(providers)];
}

/** The caller's user uuid, or 401 for a token that is not a user's or a bot's. */
export function userOf(ctx: HandlerContext): string {
  const identity = callIdentity(ctx);
  if (identity.tokenType !== "user" && identity.tokenType !== "bot") {
    throw new ConnectError("Unauthorized", Code.Unauthenticated);
  }
  return identity.subject;
}
