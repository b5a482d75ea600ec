import { CommunityMemberSchema } from "../communities/community-member.entity.ts";
import { CommunityRoomSchema } from "../communities/community-room.entity.ts";
import { CommunitySchema } from "../communities/community.entity.ts";
import { ContactBookEntrySchema } from "../contact-book/contact-book-entry.entity.ts";
import { DeviceSchema } from "../devices/device.entity.ts";
import { RoomEventSchema } from "../events/room-event.entity.ts";
import { DjNotificationStateSchema } from "../notifications/dj-notification-state.entity.ts";
import { NotificationJobRecipientSchema } from "../notifications/notification-job-recipient.entity.ts";
import { NotificationJobSubscriptionSchema } from "../notifications/notification-job-subscription.entity.ts";
import { NotificationSchema } from "../notifications/notification.entity.ts";
import { PeopleSecretSchema } from "../notifications/people-secret.entity.ts";
import { WebPushSubscriptionSchema } from "../notifications/web-push-subscription.entity.ts";
import { BlockedUserSchema } from "./blocked-user.entity.ts";
import { DjFanSchema } from "./dj-fan.entity.ts";
import { FriendInvitationSchema } from "./friend-invitation.entity.ts";
import { FriendshipSchema } from "./friendship.entity.ts";

/** the people part's entities: communities, events, the social graph, devices, the contact book, notifications. */
export const peopleEntities = [
  CommunitySchema,
  CommunityMemberSchema,
  CommunityRoomSchema,
  RoomEventSchema,
  BlockedUserSchema,
  DjFanSchema,
  FriendInvitationSchema,
  FriendshipSchema,
  DeviceSchema,
  ContactBookEntrySchema,
  NotificationSchema,
  WebPushSubscriptionSchema,
  PeopleSecretSchema,
  DjNotificationStateSchema,
  NotificationJobRecipientSchema,
  NotificationJobSubscriptionSchema,
];
