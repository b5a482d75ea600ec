// Events the user service publishes, through the outbox. Payloads are JSON for now; they become protobuf
// messages once the event protos exist (ARCHITECTURE "Data and events").
import type { EntityManager } from "@mikro-orm/postgresql";
import { enqueue } from "@tt/kit";
import type { Profile } from "./modules/profiles/profile.entity.ts";
import type { User } from "./modules/users/user.entity.ts";

/** The durable stream of the user service's events (created, profile updated, banned, roles changed, deleted). */
export const USER_EVENTS_STREAM = "TT_USER";
export const USER_EVENTS_SUBJECTS = ["tt.user.>"];

export const USER_CREATED_SUBJECT = "tt.user.user.created";

/** The payload of tt.user.user.created. No e-mail: other services have no business with it. */
export interface UserCreatedEvent {
  uuid: string;
  role: string;
  nickname: string;
  createdAt: string;
}

/**
 * Announces a new account through the transactional outbox: the event row is written with the account, in
 * the same flush, and the kit's relay publishes it (JetStream, deduplicated by row id) even when NATS was
 * away at the time.
 */
export function enqueueUserCreated(em: EntityManager, user: User, profile: Profile): void {
  const event: UserCreatedEvent = {
    uuid: user.id,
    role: user.role,
    nickname: profile.nickname,
    createdAt: user.createdAt.toISOString(),
  };
  enqueue(em, USER_CREATED_SUBJECT, new TextEncoder().encode(JSON.stringify(event)));
}
