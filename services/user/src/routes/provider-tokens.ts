import type { ServiceImpl } from "@connectrpc/connect";
import type { UserService } from "@tt/proto/tt/user/v1/user_service_pb";
import type { UserServiceContext } from "../user-context.ts";

/** RPCs of the provider-tokens area: Agora, Apple Music, SoundCloud, Spotify and YouTube tokens, CometChat tokens, the service status. */
export function providerTokenRoutes(_svc: UserServiceContext): Partial<ServiceImpl<typeof UserService>> {
  return {};
}
