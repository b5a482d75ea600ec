import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { ProfileSchema as ProfileMessageSchema, UserSchema as UserMessageSchema } from "@tt/proto/tt/user/v1/user_pb";
import type { Profile as ProfileMessage, User as UserMessage } from "@tt/proto/tt/user/v1/user_pb";
import type { Profile } from "../profiles/profile.entity.ts";
import type { User } from "./user.entity.ts";

/** The account as the API shows it (never the password hash). */
export function toUserMessage(user: User): UserMessage {
  return create(UserMessageSchema, {
    uuid: user.id,
    email: user.email,
    role: user.role,
    capabilities: [...user.capabilities],
    badges: [...user.badges],
    createdAt: timestampFromDate(user.createdAt),
  });
}

/** The public profile; badges and creation time come from the account it belongs to. */
export function toProfileMessage(profile: Profile, user: User): ProfileMessage {
  return create(ProfileMessageSchema, {
    uuid: user.id,
    nickname: profile.nickname,
    avatarId: profile.avatarId ?? "",
    color: profile.color ?? "",
    bio: profile.bio ?? "",
    badges: [...user.badges],
    createdAt: timestampFromDate(user.createdAt),
  });
}
