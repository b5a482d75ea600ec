// Events the user service publishes. Payloads are JSON for now; they become protobuf messages once the
// event protos exist (ARCHITECTURE "Data and events").
import type { Logger } from "pino";
import type { Bus } from "@tt/kit";
import type { Profile } from "./modules/profiles/profile.entity.ts";
import type { User } from "./modules/users/user.entity.ts";

export const USER_CREATED_SUBJECT = "tt.user.user.created";

/** The payload of tt.user.user.created. No e-mail: other services have no business with it. */
export interface UserCreatedEvent {
  uuid: string;
  role: string;
  nickname: string;
  createdAt: string;
}

/**
 * Announces a new account. Called after the commit; a bus failure is logged, not raised, because the
 * account exists either way and the caller must get its token. (Losing such an event needs the outbox of
 * CONVENTIONS 17, which the kit does not offer yet.)
 */
export async function publishUserCreated(bus: Bus, logger: Logger, user: User, profile: Profile): Promise<void> {
  const event: UserCreatedEvent = {
    uuid: user.id,
    role: user.role,
    nickname: profile.nickname,
    createdAt: user.createdAt.toISOString(),
  };
  try {
    await bus.publish(USER_CREATED_SUBJECT, new TextEncoder().encode(JSON.stringify(event)));
  } catch (err) {
    logger.error({ err, subject: USER_CREATED_SUBJECT, userId: user.id }, "publishing an event failed");
  }
}
