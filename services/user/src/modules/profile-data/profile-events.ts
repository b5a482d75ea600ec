// Events of the profile-data area (tt.user.profile.updated, tt.user.user.updated; tt/user/v1/events.proto),
// written to the outbox in the same flush as the change they announce.
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { EntityManager } from "@mikro-orm/postgresql";
import { publishEvent } from "@tt/kit";
import { ProfileUpdatedSchema, UserUpdatedSchema } from "@tt/proto/tt/user/v1/events_pb";
import type { Profile as ProfileMessage } from "@tt/proto/tt/user/v1/user_pb";
import type { User } from "../users/user.entity.ts";

/** tt.user.profile.updated carries the whole public profile, so copies can be replaced as they are. */
export function enqueueProfileUpdated(em: EntityManager, profile: ProfileMessage): void {
  publishEvent(em, ProfileUpdatedSchema, { uuid: profile.uuid, profile });
}

/** tt.user.user.updated: what other services base permissions and marks on, as it is now. */
export function enqueueUserUpdated(em: EntityManager, user: User, updatedAt: Date): void {
  publishEvent(em, UserUpdatedSchema, {
    uuid: user.id,
    role: user.role,
    capabilities: [...user.capabilities],
    badges: [...user.badges],
    updatedAt: timestampFromDate(updatedAt),
  });
}
