// Events the user service publishes: the protobuf messages of proto/tt/user/v1/events.proto, each declaring its
// subject (tt.user.<entity>.<verb>) next to it. Every publisher calls the kit's publishEvent with the
// EntityManager of the change it announces, so the event leaves through the transactional outbox exactly when
// the change commits; the kit's relay publishes it (JetStream, deduplicated by event id), in order.
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { EntityManager } from "@mikro-orm/postgresql";
import { eventStreamOf, publishEvent } from "@tt/kit";
import { UserCreatedSchema } from "@tt/proto/tt/user/v1/events_pb";
import type { Profile } from "./modules/profiles/profile.entity.ts";
import type { User } from "./modules/users/user.entity.ts";

/** The durable stream of the user service's events: `TT_USER` over `tt.user.>`. */
const stream = eventStreamOf("user");
export const USER_EVENTS_STREAM = stream.name;
export const USER_EVENTS_SUBJECTS = stream.subjects;

/** Announces a new account (tt.user.user.created), written with the account in the same flush. */
export function enqueueUserCreated(em: EntityManager, user: User, profile: Profile): void {
  publishEvent(em, UserCreatedSchema, {
    uuid: user.id,
    role: user.role,
    nickname: profile.nickname,
    createdAt: timestampFromDate(user.createdAt),
  });
}
