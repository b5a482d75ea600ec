// Typed Connect clients for every service of the platform, grouped by the service that serves them. Each method
// is the proto RPC (protobuf-es v2 messages in and out); what a bot token may call is each RPC's access rule
// (proto/tt/options/v1/access.proto): a call it may not make is refused with PermissionDenied or Unauthenticated.
import type { DescService } from "@bufbuild/protobuf";
import { createClient, type Client, type Transport } from "@connectrpc/connect";
import { AnalyticsService } from "@tt/proto/tt/audit/v1/analytics_service_pb";
import { AuditService } from "@tt/proto/tt/audit/v1/audit_service_pb";
import { GeolocationService } from "@tt/proto/tt/audit/v1/geolocation_service_pb";
import { ModerationService as AuditModerationService } from "@tt/proto/tt/audit/v1/moderation_service_pb";
import { AvatarService } from "@tt/proto/tt/merch/v1/avatar_service_pb";
import { ConsumableService } from "@tt/proto/tt/merch/v1/consumable_service_pb";
import { MerchService } from "@tt/proto/tt/merch/v1/merch_service_pb";
import { PointsService } from "@tt/proto/tt/merch/v1/points_service_pb";
import { TokenService } from "@tt/proto/tt/merch/v1/token_service_pb";
import { ProductService } from "@tt/proto/tt/payment/v1/product_service_pb";
import { SubscriptionService } from "@tt/proto/tt/payment/v1/subscription_service_pb";
import { AnalysisService } from "@tt/proto/tt/playlist/v1/analysis_service_pb";
import { CatalogueService } from "@tt/proto/tt/playlist/v1/catalogue_service_pb";
import { CrateService } from "@tt/proto/tt/playlist/v1/crate_service_pb";
import { ExportService } from "@tt/proto/tt/playlist/v1/export_service_pb";
import { ImportService } from "@tt/proto/tt/playlist/v1/import_service_pb";
import { RecentSongsService } from "@tt/proto/tt/playlist/v1/recent_songs_service_pb";
import { SearchService } from "@tt/proto/tt/playlist/v1/search_service_pb";
import { SongDataService } from "@tt/proto/tt/playlist/v1/song_data_service_pb";
import { AdminService as RoomAdminService } from "@tt/proto/tt/room/v1/admin_service_pb";
import { BlockedUserService } from "@tt/proto/tt/room/v1/blocked_user_service_pb";
import { CommunityService } from "@tt/proto/tt/room/v1/community_service_pb";
import { ContactBookService } from "@tt/proto/tt/room/v1/contact_book_service_pb";
import { DeviceService } from "@tt/proto/tt/room/v1/device_service_pb";
import { DjFanService } from "@tt/proto/tt/room/v1/dj_fan_service_pb";
import { EventService } from "@tt/proto/tt/room/v1/event_service_pb";
import { FriendService } from "@tt/proto/tt/room/v1/friend_service_pb";
import { InfoService } from "@tt/proto/tt/room/v1/info_service_pb";
import { NotificationService } from "@tt/proto/tt/room/v1/notification_service_pb";
import { RoomService } from "@tt/proto/tt/room/v1/room_service_pb";
import { RoomUserRoleService } from "@tt/proto/tt/room/v1/room_user_role_service_pb";
import { ChatService } from "@tt/proto/tt/social/v1/chat_service_pb";
import { PresenceService } from "@tt/proto/tt/social/v1/presence_service_pb";
import { StageService } from "@tt/proto/tt/social/v1/stage_service_pb";
import { MediaService } from "@tt/proto/tt/upload/v1/media_service_pb";
import { SongService } from "@tt/proto/tt/upload/v1/song_service_pb";
import { AccountService } from "@tt/proto/tt/user/v1/account_service_pb";
import { AdminService as UserAdminService } from "@tt/proto/tt/user/v1/admin_service_pb";
import { AuthService } from "@tt/proto/tt/user/v1/auth_service_pb";
import { ContactService } from "@tt/proto/tt/user/v1/contact_service_pb";
import { ModerationService as UserModerationService } from "@tt/proto/tt/user/v1/moderation_service_pb";
import { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import { ProviderTokenService } from "@tt/proto/tt/user/v1/provider_token_service_pb";

/** The proto services of the platform, by the service (deployment) that serves them. */
export const platformServices = {
  user: {
    account: AccountService,
    auth: AuthService,
    profile: ProfileService,
    contact: ContactService,
    providerToken: ProviderTokenService,
    moderation: UserModerationService,
    admin: UserAdminService,
  },
  room: {
    room: RoomService,
    roles: RoomUserRoleService,
    community: CommunityService,
    event: EventService,
    djFan: DjFanService,
    friend: FriendService,
    blockedUser: BlockedUserService,
    contactBook: ContactBookService,
    device: DeviceService,
    notification: NotificationService,
    info: InfoService,
    admin: RoomAdminService,
  },
  social: {
    stage: StageService,
    chat: ChatService,
    presence: PresenceService,
  },
  playlist: {
    crate: CrateService,
    catalogue: CatalogueService,
    search: SearchService,
    songData: SongDataService,
    recentSongs: RecentSongsService,
    import: ImportService,
    export: ExportService,
    analysis: AnalysisService,
  },
  upload: {
    song: SongService,
    media: MediaService,
  },
  merch: {
    merch: MerchService,
    avatar: AvatarService,
    consumable: ConsumableService,
    points: PointsService,
    token: TokenService,
  },
  payment: {
    product: ProductService,
    subscription: SubscriptionService,
  },
  audit: {
    audit: AuditService,
    analytics: AnalyticsService,
    geolocation: GeolocationService,
    moderation: AuditModerationService,
  },
} as const;

type Services = typeof platformServices;

/** A typed client of each proto service: `clients.social.stage.takeSeat({ room })`. */
export type PlatformClients = {
  [S in keyof Services]: {
    [K in keyof Services[S]]: Services[S][K] extends DescService ? Client<Services[S][K]> : never;
  };
};

/** A client of every service over one transport (see createBotTransport for the bot token on every call). */
export function createPlatformClients(transport: Transport): PlatformClients {
  return Object.fromEntries(
    Object.entries(platformServices).map(([service, protos]) => [
      service,
      Object.fromEntries(Object.entries(protos).map(([name, desc]) => [name, createClient(desc, transport)])),
    ]),
  ) as PlatformClients;
}
