// Events of the moderation area, through the transactional outbox (JSON payloads, like tt.user.user.created,
// until the event protos exist). Each is enqueued with the business write it announces.
import type { EntityManager } from "@mikro-orm/postgresql";
import { enqueue } from "@tt/kit";

export const USER_BANNED_SUBJECT = "tt.user.user.banned";
export const USER_UNBANNED_SUBJECT = "tt.user.user.unbanned";
export const USER_KICKED_SUBJECT = "tt.user.user.kicked";
export const ROLES_CHANGED_SUBJECT = "tt.user.roles.changed";
export const USER_DELETED_SUBJECT = "tt.user.user.deleted";
export const USER_REACTIVATED_SUBJECT = "tt.user.user.reactivated";

/** tt.user.user.banned: a ban or temporary ban now applies (endsAt absent for a ban without end). */
export interface UserBannedEvent {
  uuid: string;
  reason: string;
  bannedByUuid: string;
  createdAt: string;
  endsAt?: string;
}

/** tt.user.user.unbanned: lifted by a moderator, or a temporary ban that ran out (`expired`). */
export interface UserUnbannedEvent {
  uuid: string;
  /** Empty when the ban expired. */
  unbannedByUuid: string;
  expired: boolean;
  at: string;
}

/** tt.user.user.kicked: rooms drop the user now; the account stays usable. */
export interface UserKickedEvent {
  uuid: string;
  reason: string;
  kickedByUuid: string;
  at: string;
}

/** tt.user.roles.changed: the role or the capabilities of an account changed (both given, as they are now). */
export interface RolesChangedEvent {
  uuid: string;
  role: string;
  previousRole: string;
  capabilities: string[];
  changedByUuid: string;
  at: string;
}

/** tt.user.user.deleted: staff deactivated the account; other services hide the user. */
export interface UserDeletedEvent {
  uuid: string;
  deactivatedByUuid: string;
  at: string;
}

/** tt.user.user.reactivated: a deactivated account is back. */
export interface UserReactivatedEvent {
  uuid: string;
  reactivatedByUuid: string;
  at: string;
}

/** Each subject of this area and its payload. */
export interface ModerationEvents {
  [USER_BANNED_SUBJECT]: UserBannedEvent;
  [USER_UNBANNED_SUBJECT]: UserUnbannedEvent;
  [USER_KICKED_SUBJECT]: UserKickedEvent;
  [ROLES_CHANGED_SUBJECT]: RolesChangedEvent;
  [USER_DELETED_SUBJECT]: UserDeletedEvent;
  [USER_REACTIVATED_SUBJECT]: UserReactivatedEvent;
}

/** Writes the event into the outbox of `em`; it leaves with the next flush, together with the change. */
export function enqueueEvent<S extends keyof ModerationEvents>(
  em: EntityManager,
  subject: S,
  event: ModerationEvents[S],
): void {
  enqueue(em, subject, new TextEncoder().encode(JSON.stringify(event)));
}
