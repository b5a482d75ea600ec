// What the people areas' handlers share: the refusals in one wording, paging, the caller's powers, timestamps.
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import { UniqueConstraintViolationException } from "@mikro-orm/core";
import { callIdentity, type Identity } from "@tt/kit";
import type { RoomServiceContext } from "../context.ts";

/** Roles that act on any user's social data (devices, contact books) and manage communities and events. */
const ADMIN_ROLES = new Set(["admin", "superUser"]);
const STAFF_ROLES = new Set(["admin", "superUser", "staff"]);

export function isAdmin(identity: Identity): boolean {
  return identity.tokenType === "service" || (identity.tokenType === "user" && ADMIN_ROLES.has(identity.role));
}

export function isStaff(identity: Identity): boolean {
  return identity.tokenType === "user" && STAFF_ROLES.has(identity.role);
}

/**
 * 404 "User not found" unless `userId` is an account (the user service says so): the social graph names only
 * real users.
 */
export async function requireAccount(svc: RoomServiceContext, userId: string, signal: AbortSignal): Promise<void> {
  await svc.accounts.roleOf(userId, signal);
}

/** The caller's user id (user tokens only reach the handlers that use it; the access option says so). */
export function callerId(ctx: HandlerContext): string {
  return callIdentity(ctx).subject;
}

export const notFound = (what: string) => new ConnectError(`${what} not found`, Code.NotFound);
/** A 404 in its own words. */
export const missing = (message: string) => new ConnectError(message, Code.NotFound);
export const forbidden = () => new ConnectError("Forbidden", Code.PermissionDenied);
export const conflict = (message: string) => new ConnectError(message, Code.AlreadyExists);
export const badRequest = (message: string) => new ConnectError(message, Code.InvalidArgument);

/** A limit/offset page: limit 0 is `fallback` (the field rules already bound both). */
export function page(req: { limit: number; offset: number }, fallback = 20): { limit: number; offset: number } {
  return { limit: req.limit || fallback, offset: req.offset };
}

/** A take/skip page of the fan lists: 12 by default, at most 150 per fetch (spec 002 §9). */
export const FANS_PAGE_SIZE = 12;
export const FANS_MAX_PAGE = 150;
export function takeSkip(req: { take: number; skip: number }): { limit: number; offset: number } {
  return { limit: Math.min(req.take || FANS_PAGE_SIZE, FANS_MAX_PAGE), offset: req.skip };
}

/** An optional Timestamp field of a nullable date column (the kit's). */
export { optionalTimestamp as ts } from "@tt/kit";

/** Runs `work`; a unique violation (a concurrent duplicate) becomes `onDuplicate`. */
export async function uniquely<T>(work: () => Promise<T>, onDuplicate: () => ConnectError): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) throw onDuplicate();
    throw error;
  }
}

/** A slug made from a name: lowercase ASCII letters and digits joined by dashes (at most `max` characters). */
export function slugify(name: string, max: number): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, max)
    .replace(/-+$/g, "");
  return slug || "x";
}
