import type { ConnectRouter } from "@connectrpc/connect";
import { AvatarService } from "@tt/proto/tt/merch/v1/avatar_service_pb";
import { ConsumableService } from "@tt/proto/tt/merch/v1/consumable_service_pb";
import { MerchService } from "@tt/proto/tt/merch/v1/merch_service_pb";
import { PointsService } from "@tt/proto/tt/merch/v1/points_service_pb";
import { TokenService } from "@tt/proto/tt/merch/v1/token_service_pb";
import type { MerchContext } from "../context.ts";
import { avatarRoutes } from "./avatars.ts";
import { consumableRoutes } from "./consumables.ts";
import { merchRoutes } from "./merch.ts";
import { pointsRoutes } from "./points.ts";
import { tokenRoutes } from "./tokens.ts";

/** The services of package tt.merch.v1, one per area. */
export const MERCH_SERVICES = [MerchService, AvatarService, PointsService, ConsumableService, TokenService] as const;

export function registerMerchRoutes(router: ConnectRouter, svc: MerchContext): void {
  router.service(MerchService, merchRoutes(svc));
  router.service(AvatarService, avatarRoutes(svc));
  router.service(PointsService, pointsRoutes(svc));
  router.service(ConsumableService, consumableRoutes(svc));
  router.service(TokenService, tokenRoutes(svc));
}
