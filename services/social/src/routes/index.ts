import type { ConnectRouter } from "@connectrpc/connect";
import { ChatService } from "@tt/proto/tt/social/v1/chat_service_pb";
import { PresenceService } from "@tt/proto/tt/social/v1/presence_service_pb";
import { StageService } from "@tt/proto/tt/social/v1/stage_service_pb";
import type { SocialContext } from "../context.ts";
import { chatRoutes, type ChatRouteContext } from "./chat.ts";
import { presenceRoutes } from "./presence.ts";
import { stageRoutes } from "./stage.ts";

/** The services of package tt.social.v1, one per area. */
export const SOCIAL_SERVICES = [StageService, PresenceService, ChatService] as const;

export function registerSocialRoutes(router: ConnectRouter, svc: SocialContext, chat: ChatRouteContext): void {
  router.service(StageService, stageRoutes(svc));
  router.service(PresenceService, presenceRoutes(svc));
  router.service(ChatService, chatRoutes(chat));
}
