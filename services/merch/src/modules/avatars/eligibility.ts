// Who may use which avatar: one place for the rules the avatar routes apply.
import type { Client } from "@connectrpc/connect";
import type { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import type { Logger } from "pino";
import type { Avatar } from "./avatar.entity.ts";

/**
 * Whether a user is a subscriber. Nobody is until the payment service (issue: payments) says who is one; this
 * is the one function to change then (a payment event or a call to the payment service).
 */
export async function isSubscriber(_userUuid: string): Promise<boolean> {
  return false;
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
