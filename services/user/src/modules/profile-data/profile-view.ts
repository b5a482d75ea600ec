// The profile and user as the API shows them, assembled from the account's rows and this area's.
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { EntityManager } from "@mikro-orm/postgresql";
import { findOrInsert, mediaUrl } from "@tt/kit";
import {
  ImageVariantSchema,
  ProfileSchema as ProfileMessageSchema,
  UserImageSchema as UserImageMessageSchema,
  UserSocialsSchema as UserSocialsMessageSchema,
  type Profile as ProfileMessage,
  type User as UserMessage,
  type UserImage as UserImageMessage,
  type UserSocials as UserSocialsMessage,
} from "@tt/proto/tt/user/v1/user_pb";
import { Profile } from "../profiles/profile.entity.ts";
import { toUserMessage } from "../users/user.message.ts";
import type { User } from "../users/user.entity.ts";
import { DEFAULT_IMAGE_SIZE, IMAGE_SIZES, imageKey } from "./image-keys.ts";
import { ProfileDetails } from "./profile-details.entity.ts";
import type { UserImage } from "./user-image.entity.ts";
import { UserSocials } from "./user-socials.entity.ts";

export function toImageMessage(image: UserImage, baseUrl: string): UserImageMessage {
  return create(UserImageMessageSchema, {
    id: image.id,
    userUuid: image.user.id,
    kind: image.kind,
    url: mediaUrl(baseUrl, imageKey(image.id, DEFAULT_IMAGE_SIZE)),
    variants: IMAGE_SIZES.map((size) =>
      create(ImageVariantSchema, { size, url: mediaUrl(baseUrl, imageKey(image.id, size)) }),
    ),
    createdAt: timestampFromDate(image.createdAt),
  });
}

export function toSocialsMessage(socials: UserSocials | null | undefined): UserSocialsMessage {
  return create(UserSocialsMessageSchema, {
    discord: socials?.discord ?? "",
    instagram: socials?.instagram ?? "",
    twitter: socials?.twitter ?? "",
    tiktok: socials?.tiktok ?? "",
    facebook: socials?.facebook ?? "",
    soundcloud: socials?.soundcloud ?? "",
    spotify: socials?.spotify ?? "",
    youtube: socials?.youtube ?? "",
    appleMusic: socials?.appleMusic ?? "",
    website: socials?.website ?? "",
  });
}

/**
 * When a profile last changed as others see it: its own changes (details) or the account's (role, badges),
 * whichever is later. Matches the ordering of ListUpdatedUserProfiles.
 */
export function profileChangedAt(user: User, details: ProfileDetails | null | undefined): Date {
  return details && details.updatedAt > user.updatedAt ? details.updatedAt : user.updatedAt;
}

export interface ProfileParts {
  profile: Profile;
  user: User;
  details?: ProfileDetails | null;
  socials?: UserSocials | null;
}

export function toFullProfileMessage(parts: ProfileParts, baseUrl: string): ProfileMessage {
  const { profile, user, details, socials } = parts;
  return create(ProfileMessageSchema, {
    uuid: user.id,
    nickname: profile.nickname,
    avatarId: profile.avatarId ?? "",
    color: profile.color ?? "",
    bio: profile.bio ?? "",
    badges: [...user.badges],
    createdAt: timestampFromDate(user.createdAt),
    profilePicture: details?.profilePicture ? toImageMessage(details.profilePicture, baseUrl) : undefined,
    coverPicture: details?.coverPicture ? toImageMessage(details.coverPicture, baseUrl) : undefined,
    socials: toSocialsMessage(socials),
    role: user.role,
    updatedAt: timestampFromDate(profileChangedAt(user, details)),
    subscriptionLevel: user.subscriptionLevel ?? "",
  });
}

/** Loads everything a profile shows for these users; users without a profile are absent from the map. */
export async function loadProfileParts(
  em: EntityManager,
  userIds: readonly string[],
): Promise<Map<string, ProfileParts>> {
  const result = new Map<string, ProfileParts>();
  if (userIds.length === 0) return result;
  const ids = [...new Set(userIds)];
  const [profiles, details, socials] = await Promise.all([
    em.find(Profile, { user: { $in: ids } }, { populate: ["user"] }),
    em.find(ProfileDetails, { user: { $in: ids } }, { populate: ["profilePicture", "coverPicture"] }),
    em.find(UserSocials, { user: { $in: ids } }),
  ]);
  const detailsOf = new Map(details.map((d) => [d.user.id, d]));
  const socialsOf = new Map(socials.map((s) => [s.user.id, s]));
  for (const profile of profiles) {
    const id = profile.user.id;
    result.set(id, { profile, user: profile.user, details: detailsOf.get(id), socials: socialsOf.get(id) });
  }
  return result;
}

export async function loadProfileMessages(
  em: EntityManager,
  userIds: readonly string[],
  baseUrl: string,
): Promise<Map<string, ProfileMessage>> {
  const parts = await loadProfileParts(em, userIds);
  return new Map([...parts].map(([id, p]) => [id, toFullProfileMessage(p, baseUrl)]));
}

/**
 * The user with profile and socials. E-mail addresses only for `withPrivate` (the user, staff, services):
 * other users see who someone is, not how to reach them.
 */
export function toFullUserMessage(parts: ProfileParts, baseUrl: string, withPrivate: boolean): UserMessage {
  const message = toUserMessage(parts.user);
  if (!withPrivate) message.email = "";
  message.profile = toFullProfileMessage(parts, baseUrl);
  message.socials = toSocialsMessage(parts.socials);
  return message;
}

/**
 * The details row of a user, made when the profile has none yet. Made at once and race-free (insert … on conflict
 * do nothing, then read): concurrent first changes of a profile all change the one row (issue 23).
 */
export async function detailsFor(em: EntityManager, user: User): Promise<ProfileDetails> {
  return findOrInsert(
    em,
    ProfileDetails,
    { user: user.id },
    { user: user.id, profilePicture: null, coverPicture: null, updatedAt: new Date() },
    { populate: ["profilePicture", "coverPicture"] },
  );
}
