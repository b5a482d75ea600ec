// Who may use which avatar: one place for the rules the avatar routes apply.
import type { Client } from "@connectrpc/connect";
import type { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import type { Logger } from "pino";
import type { Avatar } from "./avatar.entity.ts";

/**
 * Whether a user is a subscriber: the user service keeps the payment service's subscription level on the user
 * (subscriptionLevel, issue 16); false when unknown.
 */
export async function isSubscriber(
  profiles: Client<typeof ProfileService>,
  userUuid: string,
  logger: Logger,
  signal?: AbortSignal,
): Promise<boolean> {
  try {
    const { user } = await profiles.getServiceUserProfile({ id: userUuid }, { signal });
    return (user?.subscriptionLevel ?? "") !== "";
  } catch (err) {
    logger.warn({ err, userUuid }, "could not ask the user service for the user's subscription level");
    return false;
  }
}

/** Whether the user has linked a Discord account (the user service's socials.discord); false when unknown. */
export async function isDiscordLinked(
  profiles: Client<typeof ProfileService>,
  userUuid: string,
  logger: Logger,
  signal?: AbortSignal,
): Promise<boolean> {
  try {
    const { user } = await profiles.getServiceUserProfile({ id: userUuid }, { signal });
    return (user?.socials?.discord ?? "") !== "";
  } catch (err) {
    logger.warn({ err, userUuid }, "could not ask the user service whether the user is linked to Discord");
    return false;
  }
}

export interface Eligibility {
  assigned: boolean;
  discordLinked: boolean;
  subscriber: boolean;
}

/** Whether a user may choose the avatar as their current one. */
export function mayUse(avatar: Pick<Avatar, "status" | "discordOnly" | "tokenCost">, e: Eligibility): boolean {
  if (e.assigned) return true;
  if (avatar.discordOnly && !e.discordLinked) return false;
  switch (avatar.status) {
    case "PUBLIC":
      return avatar.tokenCost === 0;
    case "SUBSCRIBER_ONLY":
      return e.subscriber;
    default:
      return false;
  }
}
