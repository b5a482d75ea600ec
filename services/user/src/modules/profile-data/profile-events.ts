// Events of the profile-data area, written to the outbox in the same flush as the change they announce.
// Payloads are JSON like tt.user.user.created's (events.ts) until the event protos exist.
import { toJsonString } from "@bufbuild/protobuf";
import type { EntityManager } from "@mikro-orm/postgresql";
import { ProfileSchema as ProfileMessageSchema, type Profile as ProfileMessage } from "@tt/proto/tt/user/v1/user_pb";
import { enqueue } from "@tt/kit";
import type { User } from "../users/user.entity.ts";

export const PROFILE_UPDATED_SUBJECT = "tt.user.profile.updated";
export const USER_UPDATED_SUBJECT = "tt.user.user.updated";

/** The payload of tt.user.user.updated: what other services base permissions and marks on. */
export interface UserUpdatedEvent {
  uuid: string;
  role: string;
  capabilities: string[];
  badges: string[];
  updatedAt: string;
}

/** tt.user.profile.updated carries the whole public profile (proto JSON), so copies can be replaced as is. */
export function enqueueProfileUpdated(em: EntityManager, profile: ProfileMessage): void {
  enqueue(em, PROFILE_UPDATED_SUBJECT, new TextEncoder().encode(toJsonString(ProfileMessageSchema, profile)));
}

export function enqueueUserUpdated(em: EntityManager, user: User, updatedAt: Date): void {
  const event: UserUpdatedEvent = {
    uuid: user.id,
    role: user.role,
    capabilities: [...user.capabilities],
    badges: [...user.badges],
    updatedAt: updatedAt.toISOString(),
  };
  enqueue(em, USER_UPDATED_SUBJECT, new TextEncoder().encode(JSON.stringify(event)));
}
