// Reading and writing rooms for the handlers: lookups by uuid or slug, the caller's and a target's standing in a
// room, unique slugs, the wire view and the settings event.
import { randomBytes } from "node:crypto";
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import type { EntityManager } from "@mikro-orm/postgresql";
import { callIdentity, isUuid, mediaUrl, publishEvent } from "@tt/kit";
import { RoomSettingsChangedSchema } from "@tt/proto/tt/room/v1/events_pb";
import { RoomSchema as RoomMessageSchema, type Room as RoomMessage } from "@tt/proto/tt/room/v1/room_pb";
import type { RoomServiceContext } from "../../context.ts";
import { type Member, slugify } from "./room-rules.ts";
import { Room } from "./room.entity.ts";
import { RoomSlug } from "./room-slug.entity.ts";
import { isGrantActive, RoomUserRole } from "./room-user-role.entity.ts";

export const ROOM_NOT_FOUND = "Room not found";

/** The room of a uuid, or of a slug (current or earlier); null when none. */
export async function findRoom(em: EntityManager, idOrSlug: string): Promise<Room | null> {
  if (idOrSlug === "") throw new ConnectError("id missing in request", Code.InvalidArgument);
  if (isUuid(idOrSlug)) {
    const room = await em.findOne(Room, { id: idOrSlug.toLowerCase() });
    if (room) return room;
  }
  const slug = idOrSlug.toLowerCase();
  const room = await em.findOne(Room, { slug });
  if (room) return room;
  const old = await em.findOne(RoomSlug, { slug });
  return old ? em.findOne(Room, { id: old.roomId }) : null;
}

/** The room, or 404 "Room not found". */
export async function requireRoom(em: EntityManager, idOrSlug: string): Promise<Room> {
  const room = await findRoom(em, idOrSlug);
  if (!room) throw new ConnectError(ROOM_NOT_FOUND, Code.NotFound);
  return room;
}

/** The grants in effect of a user in a room. */
export async function activeGrants(em: EntityManager, roomId: string, userId: string): Promise<RoomUserRole[]> {
  if (userId === "") return [];
  const now = new Date();
  const rows = await em.find(RoomUserRole, { roomId, userId });
  return rows.filter((g) => isGrantActive(g, now));
}

/** The roles of the grants in effect of several users in a room, by user, in one query (users without any left out). */
export async function activeGrantsOf(
  em: EntityManager,
  roomId: string,
  userIds: readonly string[],
): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  const ids = [...new Set(userIds.filter((id) => id !== ""))];
  if (ids.length === 0) return out;
  const now = new Date();
  for (const g of await em.find(RoomUserRole, { roomId, userId: { $in: ids } })) {
    if (!isGrantActive(g, now)) continue;
    let roles = out.get(g.userId);
    if (!roles) out.set(g.userId, (roles = new Set()));
    roles.add(g.role);
  }
  return out;
}

/** A user's standing in a room from their account role and the roles of their grants in effect. */
export function memberWith(room: Room, userId: string, accountRole: string, grants: ReadonlySet<string>): Member {
  return { userId, accountRole, isOwner: userId !== "" && room.ownerId === userId, grants };
}

/** A user's standing in a room from their account role and grants. */
export async function memberOf(em: EntityManager, room: Room, userId: string, accountRole: string): Promise<Member> {
  const grants = await activeGrants(em, room.id, userId);
  return memberWith(room, userId, accountRole, new Set(grants.map((g) => g.role)));
}

/** The caller's standing in a room (guests have no user id; services act as nobody in particular). */
export async function callerMember(em: EntityManager, ctx: HandlerContext, room: Room): Promise<Member> {
  const identity = callIdentity(ctx);
  const userId = identity.tokenType === "user" || identity.tokenType === "bot" ? identity.subject : "";
  const accountRole = identity.tokenType === "guest" ? "guest" : identity.role;
  const member = await memberOf(em, room, userId, accountRole);
  return identity.tokenType === "guest" && identity.subject ? { ...member, guest: identity.subject } : member;
}

/**
 * Another user's standing in a room: their account role comes from the user service (404 "User not found" when it
 * has no such user).
 */
export async function targetMember(
  svc: RoomServiceContext,
  em: EntityManager,
  ctx: HandlerContext,
  room: Room,
  userId: string,
): Promise<Member> {
  const accountRole = await svc.accounts.roleOf(userId, ctx.signal);
  return memberOf(em, room, userId, accountRole);
}

/**
 * A slug for `name` that no room has or had: the name's slug, else with -2, -3 … appended. `contended`: an earlier
 * try lost this slug to a room created at the same time, so every racer would pick the same next number again;
 * a random suffix instead (issue 23: 20 rooms of one name created at once used up five tries and answered 409).
 */
export async function uniqueSlug(em: EntityManager, name: string, except?: Room, contended = false): Promise<string> {
  const base = slugify(name);
  if (contended) return `${base.slice(0, 80 - 7)}-${randomBytes(3).toString("hex")}`;
  if (except && except.slug === base) return base;
  const taken = new Set(
    (await em.find(RoomSlug, { slug: { $like: `${base}%` } }, { fields: ["slug", "roomId"] }))
      .filter((s) => !except || s.roomId !== except.id)
      .map((s) => s.slug),
  );
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base.slice(0, 80 - String(n).length - 1)}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** Gives the room a new slug (kept with its earlier ones) when its name's slug differs. */
export async function renameRoom(em: EntityManager, room: Room, name: string): Promise<boolean> {
  room.name = name;
  const slug = await uniqueSlug(em, name, room);
  if (slug === room.slug) return false;
  room.slug = slug;
  const existing = await em.findOne(RoomSlug, { slug });
  if (!existing) em.create(RoomSlug, { slug, roomId: room.id, createdAt: new Date() });
  return true;
}

/** What the wire view of a room reads of it (an entity, or a row the directory read). */
export type RoomViewSource = Pick<
  Room,
  | "id"
  | "slug"
  | "name"
  | "description"
  | "ownerId"
  | "type"
  | "design"
  | "djType"
  | "numberOfDjs"
  | "isLive"
  | "liveAudio"
  | "pinnedMessages"
  | "posterKey"
  | "externalUrl"
  | "discordGuild"
  | "guestPasswordHash"
  | "promoted"
  | "musicProviders"
  | "createdAt"
  | "updatedAt"
  | "conversationClearedAt"
>;

/** The wire view of a room (the guest password only as has_guest_password). */
export function toRoomMessage(room: RoomViewSource, mediaBaseUrl: string): RoomMessage {
  return create(RoomMessageSchema, {
    uuid: room.id,
    slug: room.slug ?? "",
    name: room.name ?? "",
    description: room.description ?? "",
    ownerUuid: room.ownerId ?? "",
    type: room.type ?? "",
    design: room.design ?? "",
    djType: room.djType ?? "",
    numberOfDjs: room.numberOfDjs ?? 0,
    isLive: room.isLive ?? false,
    liveAudio: room.liveAudio ?? false,
    pinnedMessages: room.pinnedMessages ?? [],
    posterUrl: room.posterKey ? mediaUrl(mediaBaseUrl, room.posterKey) : "",
    externalUrl: room.externalUrl ?? "",
    discordGuild: room.discordGuild ?? "",
    hasGuestPassword: !!room.guestPasswordHash,
    promoted: room.promoted ?? false,
    musicProviders: room.musicProviders ?? [],
    // Admin lists may select only some fields: what was not selected stays at its default.
    createdAt: room.createdAt ? timestampFromDate(room.createdAt) : undefined,
    updatedAt: room.updatedAt ? timestampFromDate(room.updatedAt) : undefined,
    conversationClearedAt: room.conversationClearedAt ? timestampFromDate(room.conversationClearedAt) : undefined,
  });
}

/** Announces changed settings with the values after the change, in the flush that stores them. */
export function publishSettingsChanged(em: EntityManager, room: Room, changed: string[]): void {
  if (changed.length === 0) return;
  publishEvent(em, RoomSettingsChangedSchema, {
    roomUuid: room.id,
    changed,
    slug: room.slug,
    numberOfDjs: room.numberOfDjs,
    djType: room.djType,
    isLive: room.isLive ?? false,
    liveAudio: room.liveAudio ?? false,
    type: room.type,
    design: room.design,
    ownerUuid: room.ownerId,
  });
}

/** Sets the live state, adding the time the room was live to its played seconds when it ends. */
export function setLive(room: Room, isLive: boolean, now = new Date()): boolean {
  if ((room.isLive ?? false) === isLive) return false;
  if (isLive) {
    room.liveSince = now;
  } else if (room.liveSince) {
    room.playedSeconds =
      (room.playedSeconds ?? 0) + Math.max(0, Math.floor((now.getTime() - room.liveSince.getTime()) / 1000));
    room.liveSince = null;
  }
  room.isLive = isLive;
  return true;
}

/** The seconds a room has been live, the current stretch included. */
export function playedSecondsOf(room: Room, now = new Date()): number {
  const running = room.isLive && room.liveSince ? Math.floor((now.getTime() - room.liveSince.getTime()) / 1000) : 0;
  return (room.playedSeconds ?? 0) + Math.max(0, running);
}
