// The backend services the gateway routes to when it runs alone (distributed mode), by service name: registration
// data only (the routing table, OpenAPI document and Connect passthrough are derived from these descriptors).
// The platform's one list of services is services/platform/src/catalogue.ts; the gateway must not load service
// code, so it names each service's proto descriptors here, and services/platform/src/catalogue.test.ts checks
// that this holds exactly every definition's `services`, in the catalogue's order. The chart renders each
// service's <NAME>_SERVICE_URL from `services.<name>`.
import type { DescService } from "@bufbuild/protobuf";
import { AccountService } from "@tt/proto/tt/user/v1/account_service_pb";
import { AdminService } from "@tt/proto/tt/user/v1/admin_service_pb";
import { AuthService } from "@tt/proto/tt/user/v1/auth_service_pb";
import { ContactService } from "@tt/proto/tt/user/v1/contact_service_pb";
import { ModerationService } from "@tt/proto/tt/user/v1/moderation_service_pb";
import { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import { ProviderTokenService } from "@tt/proto/tt/user/v1/provider_token_service_pb";
import { AnalyticsService as AuditAnalyticsService } from "@tt/proto/tt/audit/v1/analytics_service_pb";
import { AuditService } from "@tt/proto/tt/audit/v1/audit_service_pb";
import { GeolocationService as AuditGeolocationService } from "@tt/proto/tt/audit/v1/geolocation_service_pb";
import { ModerationService as AuditModerationService } from "@tt/proto/tt/audit/v1/moderation_service_pb";
import { AvatarService as MerchAvatarService } from "@tt/proto/tt/merch/v1/avatar_service_pb";
import { ConsumableService as MerchConsumableService } from "@tt/proto/tt/merch/v1/consumable_service_pb";
import { MerchService } from "@tt/proto/tt/merch/v1/merch_service_pb";
import { PointsService as MerchPointsService } from "@tt/proto/tt/merch/v1/points_service_pb";
import { TokenService as MerchTokenService } from "@tt/proto/tt/merch/v1/token_service_pb";
import { ProductService as PaymentProductService } from "@tt/proto/tt/payment/v1/product_service_pb";
import { SubscriptionService as PaymentSubscriptionService } from "@tt/proto/tt/payment/v1/subscription_service_pb";
import { WebhookService as PaymentWebhookService } from "@tt/proto/tt/payment/v1/webhook_service_pb";
import { CatalogueService as PlaylistCatalogueService } from "@tt/proto/tt/playlist/v1/catalogue_service_pb";
import { CrateService as PlaylistCrateService } from "@tt/proto/tt/playlist/v1/crate_service_pb";
import { RecentSongsService as PlaylistRecentSongsService } from "@tt/proto/tt/playlist/v1/recent_songs_service_pb";
import { AnalysisService as PlaylistAnalysisService } from "@tt/proto/tt/playlist/v1/analysis_service_pb";
import { ExportService as PlaylistExportService } from "@tt/proto/tt/playlist/v1/export_service_pb";
import { ImportService as PlaylistImportService } from "@tt/proto/tt/playlist/v1/import_service_pb";
import { SearchService as PlaylistSearchService } from "@tt/proto/tt/playlist/v1/search_service_pb";
import { SongDataService as PlaylistSongDataService } from "@tt/proto/tt/playlist/v1/song_data_service_pb";
import { InfoService as RoomInfoService } from "@tt/proto/tt/room/v1/info_service_pb";
import { RoomService } from "@tt/proto/tt/room/v1/room_service_pb";
import { RoomUserRoleService } from "@tt/proto/tt/room/v1/room_user_role_service_pb";
import { AdminService as RoomAdminService } from "@tt/proto/tt/room/v1/admin_service_pb";
import { CommunityService as RoomCommunityService } from "@tt/proto/tt/room/v1/community_service_pb";
import { EventService as RoomEventService } from "@tt/proto/tt/room/v1/event_service_pb";
import { BlockedUserService as RoomBlockedUserService } from "@tt/proto/tt/room/v1/blocked_user_service_pb";
import { DeviceService as RoomDeviceService } from "@tt/proto/tt/room/v1/device_service_pb";
import { DjFanService as RoomDjFanService } from "@tt/proto/tt/room/v1/dj_fan_service_pb";
import { FriendService as RoomFriendService } from "@tt/proto/tt/room/v1/friend_service_pb";
import { ContactBookService as RoomContactBookService } from "@tt/proto/tt/room/v1/contact_book_service_pb";
import { NotificationService as RoomNotificationService } from "@tt/proto/tt/room/v1/notification_service_pb";
import { MediaService as UploadMediaService } from "@tt/proto/tt/upload/v1/media_service_pb";
import { SongService as UploadSongService } from "@tt/proto/tt/upload/v1/song_service_pb";
import { StageService as SocialStageService } from "@tt/proto/tt/social/v1/stage_service_pb";
import { PresenceService as SocialPresenceService } from "@tt/proto/tt/social/v1/presence_service_pb";
import { ChatService as SocialChatService } from "@tt/proto/tt/social/v1/chat_service_pb";

export const serviceCatalog = {
  user: [
    AuthService,
    AccountService,
    ContactService,
    ProfileService,
    ModerationService,
    ProviderTokenService,
    AdminService,
  ],
  upload: [UploadSongService, UploadMediaService],
  playlist: [
    PlaylistCrateService,
    PlaylistCatalogueService,
    PlaylistRecentSongsService,
    PlaylistSearchService,
    PlaylistSongDataService,
    PlaylistImportService,
    PlaylistExportService,
    PlaylistAnalysisService,
  ],
  merch: [MerchService, MerchAvatarService, MerchPointsService, MerchConsumableService, MerchTokenService],
  payment: [PaymentProductService, PaymentSubscriptionService, PaymentWebhookService],
  // The room service's proto services, one per line (the rooms part and the people part add theirs).
  // prettier-ignore
  room: [
    RoomInfoService,
    RoomService,
    RoomUserRoleService,
    RoomAdminService,
    RoomCommunityService,
    RoomEventService,
    RoomBlockedUserService,
    RoomDeviceService,
    RoomDjFanService,
    RoomFriendService,
    RoomContactBookService,
    RoomNotificationService,
  ],
  audit: [AuditService, AuditModerationService, AuditAnalyticsService, AuditGeolocationService],
  // The social service's proto services (the stage, chat and presence parts add theirs).
  social: [SocialStageService, SocialPresenceService, SocialChatService],
} as const satisfies Record<string, readonly DescService[]>;

export type CatalogName = keyof typeof serviceCatalog;
