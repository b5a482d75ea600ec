// The rooms area's rules, pure: slugs, external URLs, seat counts, the rank rule and a user's effective roles and
// permissions in a room. rank-rules.test.ts checks them as tables.
import { Code, ConnectError } from "@connectrpc/connect";

/** DJ seats: 1–10, 5 unless chosen (turntable.fm's five). */
export const MIN_DJ_SEATS = 1;
export const MAX_DJ_SEATS = 10;
export const DEFAULT_DJ_SEATS = 5;
export const DEFAULT_DESIGN = "CLUB";
export const DEFAULT_DJ_TYPE = "EVERYONE";
export const DEFAULT_TYPE = "PUBLIC";
export const MAX_PINNED_MESSAGES = 10;
export const MAX_MUSIC_PROVIDERS = 16;
/** A kick without an end lasts this long; a kick may last at most MAX_KICK_MS. */
export const DEFAULT_KICK_MS = 15 * 60 * 1000;
export const MAX_KICK_MS = 30 * 24 * 60 * 60 * 1000;

/** The user service's roles that act in every room (002 §6: globalModerator, staff, superUser; and admin). */
export const GLOBAL_ROLES: ReadonlySet<string> = new Set(["admin", "globalModerator", "staff", "superUser"]);

/** The roles a room grants (the owner is the room's ownerId, changed through change-owner only). */
export const GRANTABLE_ROLES: ReadonlySet<string> = new Set([
  "coOwner",
  "moderator",
  "dj",
  "banned",
  "kicked",
  "chatDisabled",
  "djDisabled",
]);

/** Roles that restrict their holder; a user cannot give them up themself. */
export const RESTRICTIVE_ROLES: ReadonlySet<string> = new Set(["banned", "kicked", "chatDisabled", "djDisabled"]);

/** Ranks: owner > coOwner > moderator > everyone else; the global roles above every room rank. */
export const GLOBAL_RANK = 10;
const ROLE_RANK: Record<string, number> = { owner: 3, coOwner: 2, moderator: 1 };

/** The rank a role gives (0 for dj and the restrictive roles). */
export function roleRank(role: string): number {
  return ROLE_RANK[role] ?? 0;
}

/** What is known of a user in a room: the account's role (user service) and their grants in effect. */
export interface Member {
  /** The user's uuid; empty for a guest. */
  userId: string;
  /** A guest's token subject (what admits a guest who gave the guest password); absent for users. */
  guest?: string;
  /** The account's role (admin, globalModerator, staff, superUser, user, bot …), "guest" for a guest token. */
  accountRole: string;
  isOwner: boolean;
  /** Roles of the user's grants in effect (expired ones left out). */
  grants: ReadonlySet<string>;
}

export function isGlobal(member: Pick<Member, "accountRole">): boolean {
  return GLOBAL_ROLES.has(member.accountRole);
}

/** A member's rank in the room. */
export function rankOf(member: Member): number {
  if (isGlobal(member)) return GLOBAL_RANK;
  if (member.isOwner) return ROLE_RANK.owner!;
  let rank = 0;
  for (const role of member.grants) rank = Math.max(rank, roleRank(role));
  return rank;
}

/**
 * Whether `actor` may grant or remove `role` on `target`: the actor is a moderator or above, the target's rank is
 * below the actor's and so is the role's. The global roles act everywhere but not on one another.
 */
export function mayActOn(actor: Member, target: Member, role: string): boolean {
  const actorRank = rankOf(actor);
  if (actorRank < 1) return false;
  if (actor.userId !== "" && actor.userId === target.userId) return false;
  return rankOf(target) < actorRank && roleRank(role) < actorRank;
}

/** Whether a user may give up `role` themself: their own dj, moderator or coOwner grant, never a restriction. */
export function mayRemoveOwn(actor: Member, target: Member, role: string): boolean {
  return actor.userId !== "" && actor.userId === target.userId && !RESTRICTIVE_ROLES.has(role) && role !== "owner";
}

/** 002 §6's view of the user's roles in the room (RoomRole wire names), the account's global role first. */
export function effectiveRoles(member: Member): string[] {
  const roles: string[] = [];
  if (member.accountRole === "admin" || member.accountRole === "superUser") roles.push("superUser");
  else if (member.accountRole === "globalModerator" || member.accountRole === "staff") roles.push(member.accountRole);
  if (member.isOwner) roles.push("owner");
  for (const role of ["coOwner", "moderator", "dj", "banned", "kicked", "chatDisabled", "djDisabled"]) {
    if (member.grants.has(role)) roles.push(role);
  }
  roles.push(member.accountRole === "guest" ? "guest" : "user");
  return roles;
}

export interface Permissions {
  canChat: boolean;
  canDj: boolean;
  isModerator: boolean;
}

/** What the member may do in a room with this DJ type. */
export function permissionsOf(member: Member, djType: string): Permissions {
  const rank = rankOf(member);
  const guest = member.accountRole === "guest";
  const barred = member.grants.has("banned") || member.grants.has("kicked");
  const canChat = !guest && !barred && !member.grants.has("chatDisabled");
  let canDj = !guest && !barred && !member.grants.has("djDisabled");
  if (canDj && djType === "INVITE_ONLY") canDj = rank >= 1 || member.grants.has("dj");
  if (canDj && djType === "PRO_PLAN_OWNER") canDj = member.isOwner || isGlobal(member) || member.grants.has("dj");
  return { canChat, canDj, isModerator: rank >= 1 };
}

/**
 * A slug from a name: lower-case ASCII letters, digits and single hyphens, at most 80 characters ("room" when
 * nothing is left). The caller makes it unique by appending -2, -3 ….
 */
export function slugify(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
  return slug === "" ? "room" : slug;
}

/** An external URL: http or https with a host, at most 2048 characters; 400 naming externalUrl otherwise. */
export function checkExternalUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConnectError("externalUrl must be an http or https URL", Code.InvalidArgument);
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.hostname === "" || url.username || url.password) {
    throw new ConnectError("externalUrl must be an http or https URL", Code.InvalidArgument);
  }
  return url.toString();
}
